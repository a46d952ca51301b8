import { describe, expect, it } from 'vitest';
import { reservedConcurrencyOf } from '../../../../functions/simulator/stack/stack-account.js';

const fn = (service: string, reserved?: unknown) => ({
  Type: 'AWS::Lambda::Function',
  Properties: {
    Environment: { Variables: { POWERTOOLS_SERVICE_NAME: service } },
    ...(reserved === undefined ? {} : { ReservedConcurrentExecutions: reserved }),
  },
});

describe("the simulated Lambda's reserved concurrency, read from the stack template", () => {
  it('takes each joiner function’s ReservedConcurrentExecutions and leaves the others unreserved', () => {
    const template = {
      Resources: {
        Webhook: fn('joiner-webhook', 20),
        Provisioner: fn('joiner-provisioner', 5),
        Disruption: fn('joiner-disruption'),
        Other: fn('someone-else', 3),
        Queue: { Type: 'AWS::SQS::Queue', Properties: {} },
      },
    };
    expect(reservedConcurrencyOf(template)).toEqual({ webhook: 20, provisioner: 5 });
  });

  it('is empty for the default stack (joiner:reservedConcurrency none) and for a template without resources', () => {
    expect(reservedConcurrencyOf({ Resources: { Webhook: fn('joiner-webhook') } })).toEqual({});
    expect(reservedConcurrencyOf({})).toEqual({});
  });
});
