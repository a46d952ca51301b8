import { describe, expect, it } from 'vitest';
import { checkExpectations, formatFailure } from '../../../../functions/simulator/scenario/expectations.js';
import { formatSummary } from '../../../../functions/simulator/scenario/format-summary.js';
import type { ScenarioSummary } from '../../../../functions/simulator/scenario/summary.js';

const none = { p50: null, p99: null, samples: 0 };

const summary: ScenarioSummary = {
  scenario: 'drift',
  pods: { total: 2, running: 2, pending: 0 },
  nodes: [],
  hourlyCost: 0,
  latency: {
    unit: 'virtual ms',
    unschedulableToLaunchMs: none,
    unschedulableToReadyMs: none,
    unschedulableToRunningMs: none,
    phases: { batchingMs: none, planningMs: none, launchApiMs: none, bootMs: none, podStartMs: none },
  },
  orphanedInstances: 0,
  orphans: [],
  pdbViolations: 1,
  violations: [{ pdb: 'default/web', pod: 'default/web-a', how: 'delete', atMs: 61_400 }],
  podsLost: 0,
  lostPods: [],
  nodePools: {
    default: {
      nodesSeen: 3,
      maxDisrupting: 2,
      removals: [
        { node: 'n1', disruptedAtMs: 30_000, removedAtMs: 95_000 },
        { node: 'n2', removedAtMs: 99_000 },
      ],
    },
  },
  virtualDurationMs: 120_000,
  wallDurationMs: 6_000,
  iam: { enforced: true, denied: [], spotServiceLinkedRole: 'absent' },
};

describe('disruption expectations', () => {
  it('checks exact violation and lost counts, listing what happened when they differ', () => {
    const failures = checkExpectations({ pdbViolations: 0, podsLost: 0 }, summary).map((f) =>
      formatFailure(f, 4),
    );
    expect(failures).toEqual([
      'steps[4].expect.pdbViolations: expected 0, got "1: default/web by delete of default/web-a at 61 s"',
    ]);
    expect(checkExpectations({ pdbViolations: 1, podsLost: 0 }, summary)).toEqual([]);
    expect(checkExpectations({ podsLost: 2 }, summary)).toEqual([
      { expectation: 'podsLost', expected: 2, actual: 0 },
    ]);
  });

  it('checks the nodes removed per NodePool as an exact count (unknown pools removed none)', () => {
    expect(checkExpectations({ nodesRemoved: { default: 2, other: 0 } }, summary)).toEqual([]);
    expect(checkExpectations({ nodesRemoved: { default: 3, other: 1 } }, summary)).toEqual([
      { expectation: 'nodesRemoved.default', expected: 3, actual: 2 },
      { expectation: 'nodesRemoved.other', expected: 1, actual: 0 },
    ]);
  });

  it('checks the nodes seen per NodePool as an exact count (unknown pools saw none)', () => {
    expect(checkExpectations({ nodesSeen: { default: 3, other: 0 } }, summary)).toEqual([]);
    expect(checkExpectations({ nodesSeen: { default: 2, other: 1 } }, summary)).toEqual([
      { expectation: 'nodesSeen.default', expected: 2, actual: 3 },
      { expectation: 'nodesSeen.other', expected: 1, actual: 0 },
    ]);
  });

  it('checks the most nodes disrupting at once per NodePool as a ceiling (unknown pools saw none)', () => {
    expect(checkExpectations({ maxDisrupting: { default: 2, other: 0 } }, summary)).toEqual([]);
    expect(checkExpectations({ maxDisrupting: { default: 1 } }, summary)).toEqual([
      { expectation: 'maxDisrupting.default', expected: '<= 1', actual: 2 },
    ]);
  });

  it('prints violations, pods lost and per NodePool the removals in the text summary', () => {
    const text = formatSummary({ summary, failures: [], notes: [], ok: true });
    expect(text).toContain(
      [
        'disruption: 1 PDB violation(s), 0 pod(s) lost',
        '  pdb default/web broken by delete of default/web-a at 61.400 s',
        '  nodepool default: 3 node(s) seen, at most 2 disrupting at once, 2 removed',
        '    n1 disrupted at 30.000 s, removed at 95.000 s',
        '    n2 never disrupted, removed at 99.000 s',
      ].join('\n'),
    );
  });
});
