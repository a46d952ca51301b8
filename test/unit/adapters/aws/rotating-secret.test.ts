import type { GetSecretValueCommand } from '@aws-sdk/client-secrets-manager';
import { describe, expect, it } from 'vitest';
import { rotatingSecret } from '../../../../functions/adapters/aws/rotating-secret.js';
import { secretAccepted, sourceOf } from '../../../../functions/handlers/runtime/webhook-secret.js';

const HOUR = 3_600_000;

/** A fake Secrets Manager secret with AWSCURRENT / AWSPREVIOUS stages. */
function secretStore(start: { current: string; createdAt: number; previous?: string }) {
  const state = { ...start, reads: 0 };
  const api = {
    send: async (command: GetSecretValueCommand) => {
      state.reads++;
      if (command.input.VersionStage === 'AWSPREVIOUS') {
        if (!state.previous)
          throw Object.assign(new Error('no AWSPREVIOUS'), { name: 'ResourceNotFoundException' });
        return { SecretString: state.previous };
      }
      return { SecretString: state.current, CreatedDate: new Date(state.createdAt) };
    },
  };
  const rotate = (next: string, at: number) => {
    state.previous = state.current;
    state.current = next;
    state.createdAt = at;
  };
  return { api, state, rotate };
}

describe('webhook secret rotation without downtime', () => {
  it('accepts old and new during the switch, then only the new one after the grace period', async () => {
    let now = 100 * HOUR;
    const store = secretStore({ current: 'old-secret', createdAt: 0 });
    const source = sourceOf(rotatingSecret(store.api, 'arn:secret', { now: () => now }));
    expect(await secretAccepted('old-secret', source)).toBe(true);
    // Rotation: put-secret-value makes a new AWSCURRENT; API servers still call with the old URL.
    store.rotate('new-secret', now);
    now += 60_000;
    expect(await secretAccepted('old-secret', source)).toBe(true);
    // The webhook configuration is re-installed: the new secret arrives, unknown to the cache.
    expect(await secretAccepted('new-secret', source)).toBe(true);
    expect(await secretAccepted('old-secret', source)).toBe(true);
    expect(await secretAccepted('forged', source)).toBe(false);
    // A day later the previous value is no longer accepted (after the next refresh).
    now += 25 * HOUR;
    expect(await secretAccepted('forged-again', source)).toBe(false);
    expect(await secretAccepted('old-secret', source)).toBe(false);
    expect(await secretAccepted('new-secret', source)).toBe(true);
  });

  it('re-reads Secrets Manager at most once per 30 s however many forged calls come', async () => {
    let now = 0;
    const store = secretStore({ current: 'good', createdAt: -48 * HOUR });
    const source = sourceOf(rotatingSecret(store.api, 'arn:secret', { now: () => now }));
    for (let i = 0; i < 1_000; i++) expect(await secretAccepted(`forged-${i}`, source)).toBe(false);
    expect(store.state.reads).toBe(1);
    now += 31_000;
    expect(await secretAccepted('forged', source)).toBe(false);
    expect(store.state.reads).toBe(2);
  });

  it('does not cache a failed read', async () => {
    let fail = true;
    const api = {
      send: async () => {
        if (fail) throw new Error('throttled');
        return { SecretString: 's', CreatedDate: new Date(0) };
      },
    };
    const secret = rotatingSecret(api, 'arn:secret', { now: () => 48 * HOUR });
    await expect(secret.accepted()).rejects.toThrow('throttled');
    fail = false;
    expect(await secret.accepted()).toEqual(['s']);
  });
});
