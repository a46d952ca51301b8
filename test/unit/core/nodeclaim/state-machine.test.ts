import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { newNodeClaim, nodeClaimId } from '../../../../functions/core/nodeclaim/create.js';
import { NODE_CLAIM_STATES, type NodeClaim } from '../../../../functions/core/nodeclaim/nodeclaim.js';
import {
  canTransition,
  DEFAULT_TIMEOUTS,
  dueTimers,
  InvalidTransitionError,
  nextTimer,
  transition,
  withTimer,
} from '../../../../functions/core/nodeclaim/state-machine.js';

const T0 = 1_000_000;
const instance = {
  instanceId: 'i-1',
  instanceType: 'm5.large',
  zone: 'us-west-2a',
  capacityType: 'spot' as const,
};

function pending(): NodeClaim {
  return newNodeClaim(
    {
      id: 'default-abc',
      nodePool: 'default',
      nodeClass: 'default',
      nodePoolHash: 'p',
      nodeClassHash: 'c',
      requirements: [],
      labels: {},
      taints: [],
      startupTaints: [],
      options: [{ instanceType: 'm5.large', zone: 'us-west-2a', capacityType: 'spot', price: 0.04 }],
      pods: [],
      requests: {},
      expiresAt: T0 + 720 * 3_600_000,
    },
    T0,
  );
}

describe('nodeclaim state machine', () => {
  it('walks the whole lifecycle, stamping each state and arming/clearing timers', () => {
    let c = pending();
    expect(c.state).toBe('Pending');
    expect(c.timers.launchTimeout).toBe(T0 + DEFAULT_TIMEOUTS.launchMs);
    c = transition(c, 'Launched', T0 + 10, { instance });
    expect(c.timers.launchTimeout).toBeUndefined();
    expect(c.timers.registrationTimeout).toBe(T0 + 10 + DEFAULT_TIMEOUTS.registrationMs);
    c = transition(c, 'Registered', T0 + 20, { nodeName: 'ip-10-0-0-1' });
    expect(c.timers.registrationTimeout).toBeDefined();
    c = transition(c, 'Initialized', T0 + 30);
    expect(c.timers.registrationTimeout).toBeUndefined();
    expect(c.timers.expiration).toBe(T0 + 720 * 3_600_000);
    c = withTimer(c, 'emptiness', T0 + 40);
    c = transition(c, 'Draining', T0 + 50);
    expect(c.timers.emptiness).toBeUndefined();
    c = transition(c, 'Terminating', T0 + 60);
    expect(c.timers).toEqual({ terminationCheck: T0 + 60 });
    c = transition(c, 'Gone', T0 + 70);
    expect(c.timers).toEqual({});
    expect(c.timestamps).toEqual({
      Pending: T0,
      Launched: T0 + 10,
      Registered: T0 + 20,
      Initialized: T0 + 30,
      Draining: T0 + 50,
      Terminating: T0 + 60,
      Gone: T0 + 70,
    });
    expect(c.nodeName).toBe('ip-10-0-0-1');
  });

  it('rejects transitions that skip or go back, naming the claim and the states', () => {
    expect(() => transition(pending(), 'Initialized', T0)).toThrow(InvalidTransitionError);
    expect(() => transition(pending(), 'Initialized', T0)).toThrow(/default-abc.*Pending to Initialized/);
    const gone = transition(pending(), 'Gone', T0);
    expect(() => transition(gone, 'Pending', T0)).toThrow(/allowed: none/);
  });

  it('requires the instance to enter Launched', () => {
    expect(() => transition(pending(), 'Launched', T0)).toThrow(/launched instance/);
  });

  it('treats re-entering the current state as a no-op (redelivered events)', () => {
    const launched = transition(pending(), 'Launched', T0 + 1, { instance });
    expect(transition(launched, 'Launched', T0 + 99)).toBe(launched);
  });

  it('never allows leaving Gone and always allows Terminating before Gone', () => {
    fc.assert(
      fc.property(fc.constantFrom(...NODE_CLAIM_STATES), (s) => {
        expect(canTransition('Gone', s)).toBe(s === 'Gone');
        if (s !== 'Gone' && s !== 'Terminating' && s !== 'Pending')
          expect(canTransition(s, 'Gone')).toBe(false);
        if (s !== 'Gone') expect(canTransition(s, 'Terminating')).toBe(true);
      }),
    );
  });

  it('reports the next timer and the due ones in order', () => {
    let c = withTimer(pending(), 'emptiness', T0 + 5);
    c = withTimer(c, 'drainStep', T0 + 3);
    expect(nextTimer(c)).toEqual({ kind: 'drainStep', dueAt: T0 + 3 });
    expect(dueTimers(c, T0 + 5)).toEqual(['drainStep', 'emptiness']);
    expect(dueTimers(c, T0)).toEqual([]);
    expect(
      nextTimer(
        withTimer(
          withTimer(withTimer(c, 'drainStep', undefined), 'emptiness', undefined),
          'launchTimeout',
          undefined,
        ),
      )?.kind,
    ).toBe('expiration');
  });

  it('refuses a claim without options and derives stable ids from pods', () => {
    expect(() => newNodeClaim({ ...pending(), options: [] }, T0)).toThrow(/no instance-type options/);
    expect(nodeClaimId('default', ['b', 'a'])).toBe(nodeClaimId('default', ['a', 'b']));
    expect(nodeClaimId('default', ['a'])).not.toBe(nodeClaimId('default', ['a'], 'salt'));
    expect(nodeClaimId('default', ['a'])).toMatch(/^default-[0-9a-f]{10}$/);
    expect(pending().launchToken).toBe('joiner-default-abc');
  });
});

describe('entering Launched keeps only what was launched', () => {
  const offering = (instanceType: string, zone: string, price: number, extra = {}) => ({
    instanceType,
    zone,
    capacityType: 'spot' as const,
    price,
    ...extra,
  });
  const many: NodeClaim = {
    ...pending(),
    options: [
      offering('m5.large', 'us-west-2b', 0.03, { zoneId: 'usw2-az2' }),
      offering('m5.large', 'us-west-2a', 0.04, { zoneId: 'usw2-az1' }),
      offering('c5.large', 'us-west-2a', 0.05),
    ],
    launchAttempts: 1,
    lastAttempt: {
      capacityType: 'spot',
      offerings: ['m5.large|us-west-2b|spot', 'm5.large|us-west-2a|spot'],
    },
  };

  it('narrows the options to the launched offering and drops the attempt record', () => {
    const launched = transition(many, 'Launched', T0 + 1, { instance });
    expect(launched.options).toEqual([offering('m5.large', 'us-west-2a', 0.04, { zoneId: 'usw2-az1' })]);
    expect(launched.lastAttempt).toBeUndefined();
    expect('lastAttempt' in launched).toBe(false);
    expect(launched.instance).toEqual(instance);
    expect(launched.launchAttempts).toBe(1);
  });

  it('keeps the reservation the instance runs in, not the other reservations of its offering', () => {
    const reserved = {
      ...many,
      options: [
        offering('m5.large', 'us-west-2a', 0.01, { reservationId: 'cr-1' }),
        offering('m5.large', 'us-west-2a', 0.01, { reservationId: 'cr-2' }),
      ].map((o) => ({ ...o, capacityType: 'reserved' as const })),
    };
    const launched = transition(reserved, 'Launched', T0 + 1, {
      instance: { ...instance, capacityType: 'reserved', reservationId: 'cr-2' },
    });
    expect(launched.options.map((o) => o.reservationId)).toEqual(['cr-2']);
  });

  it('keeps every option when none matches the instance (adopted as another type)', () => {
    const launched = transition(many, 'Launched', T0 + 1, {
      instance: { ...instance, instanceType: 'r5.large' },
    });
    expect(launched.options).toEqual(many.options);
    expect(launched.lastAttempt).toBeUndefined();
  });

  it('leaves the options alone in every other transition', () => {
    const launched = transition(many, 'Launched', T0 + 1, { instance });
    const registered = transition(launched, 'Registered', T0 + 2, { nodeName: 'n1' });
    expect(registered.options).toBe(launched.options);
    const failed = transition(many, 'Gone', T0 + 1, { failure: { reason: 'LaunchFailed', message: 'x' } });
    expect(failed.options).toBe(many.options);
    expect(failed.lastAttempt).toEqual(many.lastAttempt);
  });
});
