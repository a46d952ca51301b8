import { describe, expect, it } from 'vitest';
import type { LatencyRecorder, PodTimeline } from '../../../functions/simulator/scenario/latency-recorder.js';
import type { ScenarioSummary } from '../../../functions/simulator/scenario/summary.js';
import { attribute, describeFaults } from '../../chaos/harness/attribution.js';
import type { ProvisioningCycle } from '../../chaos/harness/chaos-handlers.js';
import type { LatePod } from '../../chaos/harness/invariants.js';

const START = 1_000_000;
const stamp = (ms: number) => ({ virtual: START + ms, wall: 0 });

/** A recorder holding these pods, with `nodes` mapping node names to their current instance. */
function recorder(pods: PodTimeline[], nodes: Record<string, string>): LatencyRecorder {
  return {
    pods: new Map(pods.map((p) => [p.uid, p])),
    nodeInstances: new Map(Object.entries(nodes)),
  } as unknown as LatencyRecorder;
}

const summary = (parts: Partial<Pick<ScenarioSummary, 'violations' | 'lostPods'>>) =>
  ({ violations: [], lostPods: [], ...parts }) as unknown as ScenarioSummary;

const cycle = (ms: number, ...faults: string[]): ProvisioningCycle => ({ at: START + ms, faults });

describe('chaos attribution', () => {
  it('traces a PDB violation to the instance its pod was bound to, even after a later instance took the node name', () => {
    const pod: PodTimeline = {
      namespace: 'default',
      name: 'web-1',
      uid: 'u1',
      nodeName: 'ip-10-0-0-7',
      instanceId: 'i-reclaimed',
      bound: stamp(10_000),
    };
    const traced = attribute(
      summary({
        violations: [{ pdb: 'default/web', pod: 'default/web-1', how: 'node gone' as never, atMs: 200_000 }],
      }),
      // The node name now belongs to a replacement instance joiner launched later.
      recorder([pod], { 'ip-10-0-0-7': 'i-later' }),
      new Map([['i-reclaimed', START + 80_000]]),
    );
    expect(traced.pdbViolations).toEqual({ reclaim: 1, joiner: 0 });
    expect(traced.faults[0]).toMatchObject({ instance: 'i-reclaimed', cause: 'reclaim' });
  });

  it("counts a loss on a reclaimed instance whose node joiner never drained as joiner's", () => {
    const pod = (name: string, instanceId: string): PodTimeline => ({
      namespace: 'default',
      name,
      uid: name,
      nodeName: `node-${instanceId}`,
      instanceId,
      bound: stamp(10_000),
    });
    const input = summary({
      lostPods: [
        { pod: 'default/drained', node: 'node-i-drained', atMs: 200_000 },
        { pod: 'default/undrained', node: 'node-i-undrained', atMs: 200_000 },
      ] as never,
    });
    const latency = recorder([pod('drained', 'i-drained'), pod('undrained', 'i-undrained')], {});
    const reclaimed = new Map([
      ['i-drained', START + 80_000],
      ['i-undrained', START + 80_000],
    ]);
    const traced = attribute(input, latency, reclaimed, [], START, new Set(['i-drained']));
    expect(traced.podsLost).toEqual({ reclaim: 1, joiner: 1 });
    expect(traced.faults.map((f) => [f.pod, f.cause, f.undrained ?? false])).toEqual([
      ['default/drained', 'reclaim', false],
      ['default/undrained', 'joiner', true],
    ]);
    expect(describeFaults(traced)[1]).toContain('the spot reclaim of an instance joiner never drained');
    // Without the drained set (an older caller), a reclaimed instance counts as the reclaim's.
    expect(attribute(input, latency, reclaimed).podsLost).toEqual({ reclaim: 2, joiner: 0 });
  });

  it('blames a late pod on the injected faults when at most 3 of the cycles it waited were clean, on joiner otherwise', () => {
    const late: LatePod[] = [
      {
        pod: 'default/a',
        unschedulableAt: START + 1_000,
        placedAt: START + 60_000,
        cycles: [
          cycle(2_000, 'delivery failed: chaos: the function crashed after the claim write'),
          cycle(12_000),
          cycle(22_000, 'retrying nodeclaim launch {"error":"RequestLimitExceeded"}'),
          cycle(32_000),
          cycle(42_000),
        ],
      },
      {
        pod: 'default/b',
        unschedulableAt: START + 1_000,
        placedAt: START + 60_000,
        cycles: [
          cycle(2_000),
          cycle(12_000),
          cycle(22_000, 'delivery failed: 503'),
          cycle(32_000),
          cycle(42_000),
        ],
      },
      // Still pending at the end: joiner's, whatever its cycles met.
      { pod: 'default/c', unschedulableAt: START + 5_000, cycles: [cycle(12_000, 'chaos: x')] },
    ];
    const traced = attribute(summary({}), recorder([], {}), new Map(), late, START);
    expect(traced.podsLate).toEqual({ 'injected fault': 1, joiner: 2 });
    expect(traced.late.map((l) => [l.pod, l.cause, l.cycles, l.cleanCycles])).toEqual([
      ['default/a', 'injected fault', 5, 3],
      ['default/b', 'joiner', 5, 4],
      ['default/c', 'joiner', 1, 0],
    ]);
    const lines = describeFaults(traced);
    expect(lines[0]).toBe(
      'pod late default/a from 1 s to 60 s on ? / ?: 5 cycles, 3 clean: waiting on injected faults (delivery failed: chaos: the function crashed after the claim write; retrying nodeclaim launch {"error":"RequestLimitExceeded"})',
    );
    expect(lines[2]).toContain('to the end (still pending)');
    expect(lines[2]).toContain("joiner's decision");
  });
});
