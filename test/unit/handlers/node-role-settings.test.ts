import { describe, expect, it } from 'vitest';
import { settingsFromEnv } from '../../../functions/handlers/runtime/settings.js';
import { ENV } from '../../../functions/shared/env.js';

describe('node role settings', () => {
  it('reads JOINER_NODE_ROLE_ARNS as a comma-separated list, and the IAM endpoint', () => {
    const settings = settingsFromEnv({
      [ENV.nodeRoleArns]: 'arn:aws:iam::111111111111:role/a, arn:aws:iam::111111111111:role/p/b,',
      [ENV.iamEndpoint]: 'http://127.0.0.1:9',
    });
    expect(settings.nodeRoleArns).toEqual([
      'arn:aws:iam::111111111111:role/a',
      'arn:aws:iam::111111111111:role/p/b',
    ]);
    expect(settings.endpoints.iam).toBe('http://127.0.0.1:9');
  });

  it('leaves roles unchecked when the variable is unset', () => {
    expect(settingsFromEnv({}).nodeRoleArns).toBeUndefined();
    expect(settingsFromEnv({ [ENV.nodeRoleArns]: '' }).nodeRoleArns).toBeUndefined();
  });
});
