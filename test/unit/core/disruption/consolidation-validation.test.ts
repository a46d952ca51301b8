import { describe, expect, it } from 'vitest';
import {
  consolidate,
  REVALIDATE_AFTER_MS,
} from '../../../../functions/core/disruption/consolidation/consolidation-round.js';
import { readDisruptionView } from '../../../../functions/core/disruption/disruption-view.js';
import { pod } from '../../../builders/workloads.js';
import { boundTo, type DrainHarness, drainHarness, runningNode } from './drain-harness.js';

const XLARGE = { cpu: '3900m', memory: '7Gi', pods: '58' };
const XXLARGE = { cpu: '7900m', memory: '15Gi', pods: '58' };

/** An on-demand node at `price`. */
function onDemandNode(
  h: DrainHarness,
  name: string,
  type: string,
  allocatable: typeof XLARGE,
  price: number,
) {
  const claim = runningNode(h, {
    claimId: `default-${name}`,
    nodeName: name,
    instanceType: type,
    allocatable,
  });
  if (!claim.instance) throw new Error('no instance');
  h.store.claims.set(claim.id, {
    ...claim,
    instance: { ...claim.instance, capacityType: 'on-demand', price },
  });
}

function bind(h: DrainHarness, name: string, cpu: string, node: string, pinned = false): void {
  const p = pod({ name, requests: { cpu, memory: '256Mi' }, ownerKind: 'ReplicaSet' });
  if (pinned) p.metadata.annotations = { 'karpenter.sh/do-not-disrupt': 'true' };
  h.cluster.pods.push(boundTo(p, node));
}

async function round(h: DrainHarness, propose: boolean) {
  return consolidate(h.deps, await readDisruptionView(h.deps), { propose, settleMs: 0 });
}

/**
 * ip-a (c5.2xlarge, $0.34/h) runs two 1.5-cpu pods; ip-b (c5.xlarge, kept by a do-not-disrupt pod)
 * has room for one of them. The move found: replace ip-a, one pod onto ip-b and the other onto a
 * c5.large ($0.085/h).
 */
async function proposed() {
  const h = await drainHarness('examples/consolidation');
  onDemandNode(h, 'ip-a', 'c5.2xlarge', XXLARGE, 0.34);
  onDemandNode(h, 'ip-b', 'c5.xlarge', XLARGE, 0.17);
  bind(h, 'web-1', '1500m', 'ip-a');
  bind(h, 'web-2', '1500m', 'ip-a');
  bind(h, 'pinned-1', '2', 'ip-b', true);
  const first = await round(h, true);
  expect(first.proposed?.method).toBe('replace');
  expect(first.proposed?.candidates.map((c) => c.node.metadata.name)).toEqual(['ip-a']);
  expect(first.proposed?.replacement?.instanceTypeOptions[0]?.price).toBeCloseTo(0.085, 3);
  const claim = [...h.store.claims.values()].find((c) => c.nodeName === 'ip-a');
  expect(claim?.consolidation?.newNodesPrice).toBeCloseTo(0.085, 3);
  return h;
}

describe('consolidation: a proposal is acted on only if its drain launches nothing dearer than planned', () => {
  it('acts on the proposal when the cluster is as it was', async () => {
    const h = await proposed();
    h.clock.advance(REVALIDATE_AFTER_MS);
    const acted = await round(h, false);
    expect(acted.started.map((c) => c.nodeName)).toEqual(['ip-a']);
    expect(acted.method).toBe('replace');
  });

  it("drops it when the room it counted on is taken and the replacement would now be a dearer c5.xlarge (Karpenter's validation)", async () => {
    const h = await proposed();
    // Another pod takes ip-b's room: both pods of ip-a now need one new node of 3 cpu, still
    // cheaper than ip-a ($0.17 < $0.34) but dearer than the c5.large the move planned.
    bind(h, 'late-1', '1500m', 'ip-b', true);
    h.clock.advance(REVALIDATE_AFTER_MS);
    const acted = await round(h, false);
    expect(acted.started).toEqual([]);
    expect(acted.dropped).toBe(1);
    expect(h.log.lines.some((l) => l.message === 'consolidation no longer holds, dropped')).toBe(true);
  });
});
