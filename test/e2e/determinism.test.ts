import { describe, expect, it } from 'vitest';
import { decisions, decisionTimes, playBesideBurners, playDeterminismScenario } from './determinism-check.js';

// Outcomes that do not depend on the host: one scale-out (8 one-CPU replicas) and consolidation
// (scaled to 2), played on the machine as it is and again next to two processes that spin on a CPU
// each. joiner's compute is charged by a modeled cost and every wait is on the virtual clock, so
// both runs take the same decisions (launches and removals: nodes, types, reasons, order).
describe('decisions on an idle and a busy host', () => {
  it('launches and removes the same nodes, in the same order, next to CPU-burning neighbours', async () => {
    const idle = await playDeterminismScenario(Number.POSITIVE_INFINITY);
    const busy = await playBesideBurners(2, Number.POSITIVE_INFINITY);
    const explain = [idle, busy]
      .map((r, i) => {
        const times = decisionTimes(r);
        const lines = decisions(r).map((d, k) => `  ${times[k]} s  ${d}`);
        return `${i === 0 ? 'idle' : 'busy'} run:\n${lines.join('\n')}`;
      })
      .join('\n');
    expect(idle.failures, explain).toEqual([]);
    expect(busy.failures, explain).toEqual([]);
    // A scale-out (at least two launches) and a consolidation (a removal) happened.
    expect(
      decisions(idle).filter((d) => d.includes('launched nodeclaim')).length,
      explain,
    ).toBeGreaterThanOrEqual(2);
    expect(
      decisions(idle).some((d) => d.includes('Underutilized')),
      explain,
    ).toBe(true);
    expect(decisions(busy), explain).toEqual(decisions(idle));
  }, 420_000);
});
