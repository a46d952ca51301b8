/**
 * Checks a scenario's `expect` block against a summary. Each failure names the expectation, what
 * was expected and what was found.
 */
import type { LatencyRecorder } from './latency-recorder.js';
import type { PodPlacements } from './pod-placements.js';
import type { Expectation } from './scenario-schema.js';
import type { NodeSummary, ScenarioSummary } from './summary.js';

/** One expectation that does not hold. */
export interface ExpectationFailure {
  /** Dotted name, e.g. `nodes.instanceTypes`. */
  readonly expectation: string;
  readonly expected: unknown;
  readonly actual: unknown;
}

/** Formats a failure as one line. */
export function formatFailure(f: ExpectationFailure, step?: number): string {
  const where = step === undefined ? 'expect' : `steps[${step}].expect`;
  return `${where}.${f.expectation}: expected ${JSON.stringify(f.expected)}, got ${JSON.stringify(f.actual)}`;
}

/** The failures of `expect` against `summary` (empty when everything holds). */
export function checkExpectations(
  expect: Expectation,
  summary: ScenarioSummary,
  recorder?: LatencyRecorder,
  placements?: PodPlacements,
): ExpectationFailure[] {
  const failures: ExpectationFailure[] = [];
  const check = (expectation: string, expected: unknown, actual: unknown): void => {
    if (JSON.stringify(expected) !== JSON.stringify(actual)) failures.push({ expectation, expected, actual });
  };
  for (const [key, want] of Object.entries(expect.pods ?? {})) {
    check(`pods.${key}`, want, summary.pods[key as keyof ScenarioSummary['pods']]);
  }
  checkNodes(expect.nodes, summary.nodes, check);
  if (expect.maxHourlyCost !== undefined && summary.hourlyCost > expect.maxHourlyCost) {
    failures.push({
      expectation: 'maxHourlyCost',
      expected: `<= ${expect.maxHourlyCost}`,
      actual: summary.hourlyCost,
    });
  }
  checkMultus(expect.multusEnis, summary.nodes, check);
  if (expect.taintRemovedAfterMultusReady !== undefined && recorder) {
    check(
      'taintRemovedAfterMultusReady',
      [],
      taintOrderProblems(expect.taintRemovedAfterMultusReady, summary, recorder),
    );
  }
  if (expect.orphanedInstances !== undefined) {
    check('orphanedInstances', expect.orphanedInstances, summary.orphanedInstances);
  }
  checkDisruptions(expect, summary, placements, failures);
  return failures;
}

const seconds = (ms: number): string => `${Math.round(ms / 1000)} s`;

/** pdbViolations, podsLost, maxDisrupting, nodesRemoved, nodesSeen and podsStayed; a failure lists what happened. */
function checkDisruptions(
  expect: Expectation,
  summary: ScenarioSummary,
  placements: PodPlacements | undefined,
  failures: ExpectationFailure[],
): void {
  const count = (expectation: string, want: number | undefined, seen: readonly string[]): void => {
    if (want === undefined || want === seen.length) return;
    const shown = seen.slice(0, 10).join('; ') + (seen.length > 10 ? `; ${seen.length - 10} more` : '');
    failures.push({
      expectation,
      expected: want,
      actual: seen.length === 0 ? 0 : `${seen.length}: ${shown}`,
    });
  };
  count(
    'pdbViolations',
    expect.pdbViolations,
    summary.violations.map((v) => `${v.pdb} by ${v.how} of ${v.pod} at ${seconds(v.atMs)}`),
  );
  count(
    'podsLost',
    expect.podsLost,
    summary.lostPods.map((l) => `${l.pod} on ${l.node} at ${seconds(l.atMs)}`),
  );
  for (const [pool, most] of Object.entries(expect.maxDisrupting ?? {})) {
    const seen = summary.nodePools[pool]?.maxDisrupting ?? 0;
    if (seen > most)
      failures.push({ expectation: `maxDisrupting.${pool}`, expected: `<= ${most}`, actual: seen });
  }
  for (const [pool, want] of Object.entries(expect.nodesRemoved ?? {})) {
    const removed = summary.nodePools[pool]?.removals.length ?? 0;
    if (removed !== want)
      failures.push({ expectation: `nodesRemoved.${pool}`, expected: want, actual: removed });
  }
  for (const [pool, want] of Object.entries(expect.nodesSeen ?? {})) {
    const seen = summary.nodePools[pool]?.nodesSeen ?? 0;
    if (seen !== want) failures.push({ expectation: `nodesSeen.${pool}`, expected: want, actual: seen });
  }
  if (expect.podsStayed && placements) {
    const problems = placements.problems(expect.podsStayed);
    if (problems.length > 0) failures.push({ expectation: 'podsStayed', expected: [], actual: problems });
  }
}

type Check = (expectation: string, expected: unknown, actual: unknown) => void;

function counts(values: readonly string[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const v of [...values].sort()) out[v] = (out[v] ?? 0) + 1;
  return out;
}

function sortedRecord<T>(record: Readonly<Record<string, T>>): Record<string, T> {
  return Object.fromEntries(Object.entries(record).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

function checkNodes(want: Expectation['nodes'], nodes: readonly NodeSummary[], check: Check): void {
  if (!want) return;
  if (want.count !== undefined) check('nodes.count', want.count, nodes.length);
  if (want.instanceTypes) {
    check('nodes.instanceTypes', sortedRecord(want.instanceTypes), counts(nodes.map((n) => n.instanceType)));
  }
  if (want.capacityTypes) {
    check('nodes.capacityTypes', sortedRecord(want.capacityTypes), counts(nodes.map((n) => n.capacityType)));
  }
  if (want.zones) {
    const outside = nodes.filter((n) => !want.zones?.includes(n.zone)).map((n) => `${n.name} in ${n.zone}`);
    check('nodes.zones', [], outside);
  }
  if (want.podsPerNode) {
    const desc = (xs: readonly number[]): number[] => [...xs].sort((a, b) => b - a);
    check('nodes.podsPerNode', desc(want.podsPerNode), desc(nodes.map((n) => n.pods)));
  }
  for (const [type, pods] of Object.entries(want.maxPods ?? {})) {
    const found = [...new Set(nodes.filter((n) => n.instanceType === type).map((n) => n.maxPods))];
    check(`nodes.maxPods.${type}`, [pods], found);
  }
  for (const key of want.withoutTaints ?? []) {
    const tainted = nodes.filter((n) =>
      n.taints.some((t) => t.startsWith(`${key}=`) || t.startsWith(`${key}:`)),
    );
    check(
      `nodes.withoutTaints.${key}`,
      [],
      tainted.map((n) => n.name),
    );
  }
}

function checkMultus(want: Expectation['multusEnis'], nodes: readonly NodeSummary[], check: Check): void {
  if (!want) return;
  const problems = (fn: (n: NodeSummary) => string | undefined): string[] =>
    nodes.map(fn).filter((p): p is string => p !== undefined);
  if (want.perNode !== undefined) {
    check(
      'multusEnis.perNode',
      [],
      problems((n) =>
        n.multusEnis.length === want.perNode ? undefined : `${n.name}: ${n.multusEnis.length}`,
      ),
    );
  }
  if (want.subnets) {
    check(
      'multusEnis.subnets',
      [],
      problems((n) => {
        const allowed = want.subnets?.[n.zone] ?? [];
        const wrong = n.multusEnis.filter((e) => !allowed.includes(e.subnetName)).map((e) => e.subnetName);
        return wrong.length === 0 ? undefined : `${n.name} (${n.zone}): ${wrong.join(', ')}`;
      }),
    );
  }
  if (want.securityGroups) {
    const groups = [...want.securityGroups].sort();
    check(
      'multusEnis.securityGroups',
      [],
      problems((n) => {
        const wrong = n.multusEnis.filter(
          (e) => JSON.stringify([...e.securityGroups].sort()) !== JSON.stringify(groups),
        );
        return wrong.length === 0
          ? undefined
          : `${n.name}: ${wrong.map((e) => e.securityGroups.join('+')).join(', ')}`;
      }),
    );
  }
  for (const field of ['deleteOnTermination', 'noManage'] as const) {
    const want1 = field === 'noManage' ? want.noManageTag : want.deleteOnTermination;
    if (want1 === undefined) continue;
    const name = field === 'noManage' ? 'noManageTag' : field;
    check(
      `multusEnis.${name}`,
      [],
      problems((n) => (n.multusEnis.every((e) => e[field] === want1) ? undefined : n.name)),
    );
  }
}

/** Nodes whose startup taint `key` went before their Multus pod was Ready (or never went). */
function taintOrderProblems(key: string, summary: ScenarioSummary, recorder: LatencyRecorder): string[] {
  const out: string[] = [];
  for (const node of summary.nodes) {
    const t = recorder.nodes.get(node.name);
    const removed = t?.taintRemoved.get(key);
    if (!removed) {
      out.push(`${node.name}: taint ${key} never removed`);
      continue;
    }
    if (!t?.multusReady) out.push(`${node.name}: taint removed but no Multus pod was Ready`);
    else if (removed.virtual < t.multusReady.virtual)
      out.push(`${node.name}: taint removed before the Multus pod was Ready`);
  }
  return out;
}
