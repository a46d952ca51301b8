/**
 * Static NodePools (Karpenter v1.8 `replicas`): the pure decisions — how many nodes a pool
 * launches, which nodes a scale-down removes, how the disruption round treats static nodes, and
 * the nodeclaims a static pool launches.
 */
import { describe, expect, it } from 'vitest';
import { bundledCatalog } from '../../../functions/core/catalog/bundled.js';
import { consolidatesUnderutilized } from '../../../functions/core/disruption/consolidation/candidates.js';
import { decideRound } from '../../../functions/core/disruption/decide.js';
import { disruptionView } from '../../../functions/core/disruption/disruption-view.js';
import { emptinessEnabled } from '../../../functions/core/disruption/emptiness.js';
import { staticScaleDown } from '../../../functions/core/disruption/static-scale-down.js';
import type { Node, Pod } from '../../../functions/core/model/kube-objects.js';
import type { NodePool } from '../../../functions/core/model/node-pool.js';
import type { NodeClaim, NodeClaimState } from '../../../functions/core/nodeclaim/nodeclaim.js';
import { DEFAULT_TIMEOUTS } from '../../../functions/core/nodeclaim/state-machine.js';
import { staticClaims } from '../../../functions/core/provisioning/static-claims.js';
import { staticCount, staticLaunches, toLaunch } from '../../../functions/core/provisioning/static-pools.js';
import { schedulingPools } from '../../../functions/core/scheduling/prepare.js';
import { nodeClass, nodePool } from '../../builders/config.js';
import { pendingClaim } from './lifecycle/fakes.js';

const NOW = Date.parse('2026-01-01T00:00:00Z');
const MIN = 60_000;

const fixed = (replicas: number, extra: Partial<NodePool> = {}): NodePool =>
  nodePool({ name: 'fixed', replicas, ...extra });

/** A claim of pool `fixed` in `state`, created `age` ms before NOW, with node `ip-<id>` when it has one. */
function claim(id: string, state: NodeClaimState, age = 10 * MIN): NodeClaim {
  const base = pendingClaim(id, NOW - age, []);
  return {
    ...base,
    nodePool: 'fixed',
    static: true,
    state,
    timestamps: { Pending: NOW - age, Initialized: NOW - age + MIN },
    ...(state === 'Pending'
      ? {}
      : {
          instance: {
            instanceId: `i-${id}`,
            instanceType: 'm5.large',
            zone: 'us-west-2a',
            capacityType: 'on-demand',
          },
          nodeName: `ip-${id}`,
        }),
  };
}

function nodeOf(id: string): Node {
  return {
    metadata: { name: `ip-${id}`, labels: { 'karpenter.sh/nodepool': 'fixed' } },
    spec: { providerID: `aws:///us-west-2a/i-${id}` },
    status: { conditions: [{ type: 'Ready', status: 'True' }] },
  };
}

function podOn(id: string, name: string, annotations: Record<string, string> = {}, daemon = false): Pod {
  return {
    metadata: {
      name,
      namespace: 'default',
      uid: `uid-${name}`,
      annotations,
      ...(daemon
        ? { ownerReferences: [{ kind: 'DaemonSet', name: 'ds', uid: 'ds', apiVersion: 'apps/v1' }] }
        : {}),
    },
    spec: { nodeName: `ip-${id}`, containers: [{ name: 'c' }] },
    status: { phase: 'Running' },
  } as Pod;
}

function view(pool: NodePool, claims: NodeClaim[], nodes: Node[], pods: Pod[] = []) {
  return disruptionView(NOW, claims, nodes, pods, [], {
    nodePools: [pool],
    nodeClasses: [],
    nodePoolNames: new Set([pool.name]),
    nodeClassNames: new Set(),
  } as never);
}

describe('static pool counts and launches', () => {
  it('launches what it lacks: replicas minus its active claims', () => {
    const claims = [claim('a', 'Initialized'), claim('b', 'Pending'), claim('c', 'Draining')];
    const count = staticCount(fixed(4), claims);
    expect(count).toMatchObject({ replicas: 4, active: 2, deleting: 1 });
    expect(toLaunch(count)).toBe(2);
  });

  it('counts nodes being removed against limits.nodes, and waits at the limit', () => {
    const claims = [claim('a', 'Initialized'), claim('b', 'Draining')];
    expect(toLaunch(staticCount(fixed(2, { limits: { nodes: 2 } }), claims))).toBe(0);
    expect(toLaunch(staticCount(fixed(3, { limits: { nodes: 3 } }), claims))).toBe(1);
    const [launch] = staticLaunches([fixed(2, { limits: { nodes: 2 } })], claims);
    expect(launch).toMatchObject({ launch: 0, limited: true });
  });

  it('launches nothing for a dynamic pool, or a static one at or over its count', () => {
    expect(staticLaunches([nodePool({ name: 'fixed' })], [])).toEqual([]);
    expect(toLaunch(staticCount(fixed(1), [claim('a', 'Initialized'), claim('b', 'Initialized')]))).toBe(0);
  });

  it('ignores claims of other pools and Gone claims', () => {
    const other = { ...claim('x', 'Initialized'), nodePool: 'other' };
    expect(staticCount(fixed(2), [other, claim('g', 'Gone')]).active).toBe(0);
  });
});

describe('static scale-down: which nodes go', () => {
  const decided = new Set<string>();

  it('takes claims without a node first, then empty nodes, then the cheapest to disrupt', () => {
    const claims = [
      claim('busy', 'Initialized', 30 * MIN),
      claim('empty', 'Initialized'),
      claim('new', 'Launched', MIN),
    ];
    const pods = [podOn('busy', 'web-1'), podOn('empty', 'agent', {}, true)];
    const v = view(fixed(1), claims, [nodeOf('busy'), nodeOf('empty')], pods);
    const removed = staticScaleDown({ ...v, pools: v.config.nodePools, decided });
    expect(removed.map((r) => [r.claim.id, r.node?.metadata.name])).toEqual([
      ['new', undefined],
      ['empty', 'ip-empty'],
    ]);
    expect(removed[0].message).toBe('static NodePool fixed scaled down to 1 replica(s) from 3');
  });

  it('leaves nodes with do-not-disrupt pods for last, and the cheaper of the others goes', () => {
    const claims = [claim('keep', 'Initialized'), claim('two', 'Initialized'), claim('one', 'Initialized')];
    const pods = [
      podOn('keep', 'db', { 'karpenter.sh/do-not-disrupt': 'true' }),
      podOn('two', 'a'),
      podOn('two', 'b'),
      podOn('one', 'c'),
    ];
    const v = view(fixed(1), claims, ['keep', 'two', 'one'].map(nodeOf), pods);
    const removed = staticScaleDown({ ...v, pools: v.config.nodePools, decided });
    expect(removed.map((r) => r.claim.id)).toEqual(['one', 'two']);
  });

  it('a Pending claim takes its share of the surplus: no running node goes in its place', () => {
    const claims = [claim('run', 'Initialized'), claim('p', 'Pending', MIN)];
    const v = view(fixed(1), claims, [nodeOf('run')], [podOn('run', 'web')]);
    expect(staticScaleDown({ ...v, pools: v.config.nodePools, decided })).toEqual([]);
  });

  it('removes nothing at or under replicas, nor from dynamic pools', () => {
    const claims = [claim('a', 'Initialized'), claim('b', 'Initialized')];
    const v = view(fixed(2), claims, [nodeOf('a'), nodeOf('b')]);
    expect(staticScaleDown({ ...v, pools: v.config.nodePools, decided })).toEqual([]);
    const d = view(nodePool({ name: 'fixed' }), claims, [nodeOf('a'), nodeOf('b')]);
    expect(staticScaleDown({ ...d, pools: d.config.nodePools, decided })).toEqual([]);
  });
});

describe('the disruption round and static pools', () => {
  const round = (pool: NodePool, claims: NodeClaim[], nodes: Node[], pods: Pod[] = [], drift = new Map()) =>
    decideRound({
      view: view(pool, claims, nodes, pods),
      drift,
      dueEmptiness: new Set(claims.map((c) => c.id)),
      settleMs: 0,
    });

  it('scales down forcefully: a budget of 0 does not hold it', () => {
    const pool = fixed(1, {
      disruption: {
        consolidationPolicy: 'WhenEmpty',
        consolidateAfterMs: 0,
        budgets: [{ nodes: { count: 0 } }],
      },
    });
    const out = round(
      pool,
      [claim('a', 'Initialized'), claim('b', 'Initialized', MIN)],
      [nodeOf('a'), nodeOf('b')],
    );
    expect(out.decisions.map((d) => [d.claim.id, d.cause, d.forceful, d.replaceBy])).toEqual([
      // Both are empty: the older goes (closer to its expiry).
      ['a', 'overprovisioned', true, NOW],
    ]);
  });

  it('never removes an empty static node for emptiness, and never consolidates a static pool', () => {
    const pool = fixed(2);
    const out = round(
      pool,
      [claim('a', 'Initialized'), claim('b', 'Initialized')],
      [nodeOf('a'), nodeOf('b')],
    );
    expect(out.decisions).toEqual([]);
    expect(emptinessEnabled(pool)).toBe(false);
    expect(consolidatesUnderutilized(pool)).toBe(false);
    expect(consolidatesUnderutilized(nodePool())).toBe(true);
  });

  it('an expired static node is removed forcefully and no other node goes with it (the run replaces it)', () => {
    const expired = { ...claim('a', 'Initialized'), timers: { expiration: NOW - MIN } };
    const out = round(fixed(2), [expired, claim('b', 'Initialized')], [nodeOf('a'), nodeOf('b')]);
    expect(out.decisions.map((d) => [d.claim.id, d.cause, d.forceful])).toEqual([['a', 'expired', true]]);
  });

  it('replaces a drifted node only while limits.nodes leaves room for its replacement', () => {
    const drift = new Map([['a', { message: 'NodePool drifted' }]]);
    const claims = [claim('a', 'Initialized'), claim('b', 'Initialized')];
    const budgets = {
      consolidationPolicy: 'WhenEmpty' as const,
      consolidateAfterMs: 0,
      budgets: [{ nodes: { count: 5 } }],
    };
    const full = round(
      fixed(2, { limits: { nodes: 2 }, disruption: budgets }),
      claims,
      [nodeOf('a'), nodeOf('b')],
      [],
      drift,
    );
    expect(full.decisions).toEqual([]);
    expect(full.blocked.map((b) => b.message)).toEqual([
      'static NodePool has no room under limits.nodes for a replacement, or is scaling down',
    ]);
    const room = round(
      fixed(2, { limits: { nodes: 3 }, disruption: budgets }),
      claims,
      [nodeOf('a'), nodeOf('b')],
      [],
      drift,
    );
    expect(room.decisions.map((d) => [d.claim.id, d.cause])).toEqual([['a', 'drifted']]);
  });
});

describe('the nodeclaims a static pool launches', () => {
  const pool = fixed(2, {
    requirements: [
      { key: 'node.kubernetes.io/instance-type', operator: 'In', values: ['m5.large', 'm5.xlarge'] },
    ],
  });
  const [sp] = schedulingPools([pool], [nodeClass()], bundledCatalog);
  const launch = { pool, count: staticCount(pool, []), launch: 2, limited: false };

  it('are empty template claims of the pool, cheapest option first, with ids a second run computes again', () => {
    const made = staticClaims(launch, sp, [], [], NOW, DEFAULT_TIMEOUTS);
    if (typeof made === 'string') throw new Error(made);
    expect(made).toHaveLength(2);
    expect(made.every((c) => c.static && c.pods.length === 0 && c.state === 'Pending')).toBe(true);
    expect(new Set(made.flatMap((c) => c.options.map((o) => o.instanceType)))).toEqual(
      new Set(['m5.large', 'm5.xlarge']),
    );
    const prices = made[0].options
      .filter((o) => o.capacityType === made[0].options[0].capacityType)
      .map((o) => o.price);
    expect(prices).toEqual([...prices].sort((a, b) => a - b));
    const again = staticClaims(launch, sp, [], [], NOW + MIN, DEFAULT_TIMEOUTS) as NodeClaim[];
    expect(again.map((c) => c.id)).toEqual(made.map((c) => c.id));
    expect(new Set(made.map((c) => c.id)).size).toBe(2);
    const later = staticClaims(
      launch,
      sp,
      [],
      [claim('a', 'Initialized')],
      NOW,
      DEFAULT_TIMEOUTS,
    ) as NodeClaim[];
    expect(later.map((c) => c.id)).not.toContain(made[0].id);
    const salted = staticClaims(launch, sp, [], [], NOW, DEFAULT_TIMEOUTS, 1) as NodeClaim[];
    expect(salted[0].id).not.toBe(made[0].id);
  });

  it('says why a pool without its NodeClass launches none', () => {
    const [missing] = schedulingPools([pool], [], bundledCatalog);
    expect(staticClaims(launch, missing, [], [], NOW, DEFAULT_TIMEOUTS)).toMatch(/not found/);
  });
});
