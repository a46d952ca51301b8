import { describe, expect, it } from 'vitest';
import { nodeClassDriftHash } from '../../../../functions/core/disruption/drift-hashes.js';
import {
  backoffMs,
  failureStatusMessage,
  launchBlocks,
  NODECLASS_BACKOFF_MAX_MS,
  nodeClassLaunchFailures,
} from '../../../../functions/core/launch/nodeclass-launch-backoff.js';
import type { NodeClaim } from '../../../../functions/core/nodeclaim/nodeclaim.js';
import { transition } from '../../../../functions/core/nodeclaim/state-machine.js';
import { nodeClass } from '../../../builders/config.js';
import { pendingClaim } from '../lifecycle/fakes.js';

const T0 = 1_700_000_000_000;
const MIN = 60_000;
const kms = { reason: 'InvalidKMSKey', message: 'EC2 terminated instance i-1 during launch (...)' };
const base = nodeClass();
const hash = nodeClassDriftHash(base);

/** A claim launched at `at` and failed 3 s later with `failure` (Gone). */
function failed(id: string, at: number, failure = kms, classHash = hash): NodeClaim {
  const pending = { ...pendingClaim(id, at), nodeClassHash: classHash };
  const launched = transition(pending, 'Launched', at, {
    instance: { instanceId: `i-${id}`, instanceType: 'c5.large', zone: 'us-west-2a', capacityType: 'spot' },
  });
  const terminating = transition(launched, 'Terminating', at + 3_000, { failure });
  return transition(terminating, 'Gone', at + 3_000, { failure });
}

function registered(id: string, at: number): NodeClaim {
  const pending = { ...pendingClaim(id, at), nodeClassHash: hash };
  const launched = transition(pending, 'Launched', at, {
    instance: { instanceId: `i-${id}`, instanceType: 'c5.large', zone: 'us-west-2a', capacityType: 'spot' },
  });
  return transition(launched, 'Registered', at + 30_000, { nodeName: `ip-${id}` });
}

describe('the NodeClass launch backoff', () => {
  it('doubles from 1 minute to at most 15', () => {
    expect([1, 2, 3, 4, 5, 6, 9].map(backoffMs)).toEqual([1, 2, 4, 8, 15, 15, 15].map((m) => m * MIN));
    expect(NODECLASS_BACKOFF_MAX_MS).toBe(15 * MIN);
  });

  it('one failure blocks the NodeClass for a minute, naming the reason, then lets it launch again', () => {
    const failures = nodeClassLaunchFailures([failed('a', T0)], [base], T0 + 10_000);
    const f = failures.get('default');
    expect(f).toMatchObject({
      reason: 'InvalidKMSKey',
      failures: 1,
      at: T0 + 3_000,
      until: T0 + 3_000 + MIN,
    });
    const blocks = launchBlocks(failures, T0 + 10_000);
    expect(blocks.get('default')).toMatch(
      /^InvalidKMSKey \(1 launch failure\(s\) in a row; launches resume at .* or when the NodeClass changes\): EC2 terminated/,
    );
    expect(launchBlocks(failures, T0 + 3_000 + MIN).size).toBe(0);
    // Still reported (not Ready) after the wait, until a registration or an hour.
    expect(failureStatusMessage(f!, T0 + 2 * MIN)).toMatch(/launches are tried again/);
    expect(nodeClassLaunchFailures([failed('a', T0)], [base], T0 + 61 * MIN).size).toBe(0);
  });

  it('each failure after a wait doubles the next one', () => {
    const claims = [failed('a', T0), failed('b', T0 + 2 * MIN), failed('c', T0 + 5 * MIN)];
    const f = nodeClassLaunchFailures(claims, [base], T0 + 5 * MIN + 5_000).get('default');
    expect(f?.failures).toBe(3);
    expect(f?.until).toBe(T0 + 5 * MIN + 3_000 + 4 * MIN);
  });

  it('claims of one burst (launched before the wait began) count once', () => {
    const claims = [failed('a', T0), failed('b', T0 + 500), failed('c', T0 + 900)];
    const f = nodeClassLaunchFailures(claims, [base], T0 + 10_000).get('default');
    expect(f?.failures).toBe(1);
  });

  it('an edit of the NodeClass (a new kmsKeyID) ends the backoff at once', () => {
    const edited = nodeClass({
      blockDeviceMappings: [
        { deviceName: '/dev/xvda', ebs: { kmsKeyID: 'arn:aws:kms:us-west-2:111122223333:key/new' } },
      ],
    } as never);
    expect(nodeClassDriftHash(edited)).not.toBe(hash);
    expect(nodeClassLaunchFailures([failed('a', T0)], [edited], T0 + 10_000).size).toBe(0);
  });

  it('a node of the NodeClass registering after the failures ends the series', () => {
    const claims = [failed('a', T0), registered('b', T0 + 2 * MIN)];
    expect(nodeClassLaunchFailures(claims, [base], T0 + 3 * MIN).size).toBe(0);
    // A later failure starts a new series at one minute.
    const again = nodeClassLaunchFailures(
      [...claims, failed('c', T0 + 4 * MIN)],
      [base],
      T0 + 4 * MIN + 4_000,
    );
    expect(again.get('default')?.failures).toBe(1);
  });

  it("counts only a NodeClass's own failures of its own causes, once retired", () => {
    const other = nodeClass({ name: 'other' });
    const claims = [
      failed('a', T0, { reason: 'InsufficientCapacity', message: 'x' }),
      failed('b', T0, { reason: 'InstanceStopped', message: 'x' }),
      { ...failed('c', T0), nodeClass: 'other' },
      { ...failed('d', T0), state: 'Launched' as const },
    ];
    const failures = nodeClassLaunchFailures(claims, [base, other], T0 + 10_000);
    expect(failures.has('default')).toBe(false);
    expect(failures.get('other')?.failures).toBe(1);
  });
});
