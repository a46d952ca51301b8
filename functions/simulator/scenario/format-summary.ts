/**
 * The text form of a scenario summary, as `joiner simulate` prints it after the log.
 */
import { formatIam } from './iam-denials.js';
import type { ScenarioResult } from './run-scenario.js';
import type { NodeSummary, Percentiles, ScenarioSummary } from './summary.js';

/** Seconds with millisecond precision: the one unit of the text summary (JSON: milliseconds). */
export const seconds = (ms: number): string => `${(ms / 1000).toFixed(3)} s`;

const pct = (p: Percentiles): string =>
  p.samples === 0 ? 'n/a' : `p50 ${seconds(p.p50 ?? 0)}, p99 ${seconds(p.p99 ?? 0)} (${p.samples} pods)`;

/** `$0.0576/h`, or `$0.0576/h (NodeOverlay price; list $0.0960/h)` when an overlay set it. */
export function nodePrice(node: NodeSummary): string {
  const price = `$${node.hourlyPrice.toFixed(4)}/h`;
  return node.priceOverlaid
    ? `${price} (NodeOverlay price; list $${(node.listPrice ?? 0).toFixed(4)}/h)`
    : price;
}

/** The hourly cost line's value, with the list-price total when a NodeOverlay priced a node. */
export function hourlyCostText(s: ScenarioSummary): string {
  const cost = `$${s.hourlyCost.toFixed(4)}`;
  return s.listHourlyCost === undefined
    ? cost
    : `${cost} (NodeOverlay prices; list prices $${s.listHourlyCost.toFixed(4)})`;
}

function nodeLines(node: NodeSummary): string[] {
  const head =
    `  ${node.name}  ${node.instanceType}  ${node.zone}  ${node.capacityType}  ` +
    `pods ${node.pods}${node.maxPods === undefined ? '' : `/${node.maxPods}`}  ${nodePrice(node)}` +
    (node.nodePool ? `  nodepool ${node.nodePool}` : '') +
    (node.taints.length > 0 ? `  taints ${node.taints.join(',')}` : '') +
    (node.ami ? `  ami ${node.ami.id}${node.ami.name ? ` (${node.ami.name})` : ''}` : '') +
    (node.efaInterfaces ? `  efa ${node.efaInterfaces}` : '');
  const enis = node.multusEnis.map(
    (e) =>
      `    multus eth${e.deviceIndex} ${e.networkInterfaceId} subnet ${e.subnetName} (${e.subnetId}) ` +
      `sg ${e.securityGroups.join(',')}${e.deleteOnTermination ? ' deleteOnTermination' : ''}${e.noManage ? ' no_manage' : ''}`,
  );
  return [head, ...enis];
}

const sec = seconds;

/** At most `max` lines, then how many more there are. */
function capped(lines: readonly string[], max = 20): string[] {
  if (lines.length <= max) return [...lines];
  return [...lines.slice(0, max), `    ... ${lines.length - max} more`];
}

/** PDB violations, pods lost, and per NodePool its nodes, the most disrupting at once and the removals. */
function disruptionLines(s: ScenarioSummary): string[] {
  const lines = [`disruption: ${s.pdbViolations} PDB violation(s), ${s.podsLost} pod(s) lost`];
  lines.push(
    ...capped(s.violations.map((v) => `  pdb ${v.pdb} broken by ${v.how} of ${v.pod} at ${sec(v.atMs)}`)),
    ...capped(s.lostPods.map((l) => `  lost ${l.pod} on ${l.node} at ${sec(l.atMs)}`)),
  );
  for (const [pool, p] of Object.entries(s.nodePools)) {
    lines.push(
      `  nodepool ${pool}: ${p.nodesSeen} node(s) seen, at most ${p.maxDisrupting} disrupting at once, ${p.removals.length} removed`,
      ...capped(
        p.removals.map(
          (r) =>
            `    ${r.node} ${r.disruptedAtMs === undefined ? 'never disrupted' : `disrupted at ${sec(r.disruptedAtMs)}`}, removed at ${sec(r.removedAtMs)}`,
        ),
      ),
    );
  }
  return lines;
}

/** Per phase p50 / p99 (see latency-phases.ts). */
function phaseLines(s: ScenarioSummary): string[] {
  const p = s.latency.phases;
  if (!p) return [];
  return [
    '  phases:',
    `    batching (webhook, EventBridge, SQS, batch window):    ${pct(p.batchingMs)}`,
    `    planning (batch closed until nodeclaim written):       ${pct(p.planningMs)}`,
    ...(p.planning
      ? [
          `      reads (API latency of list/get/describe/query):     ${pct(p.planning.readsMs)}`,
          `      compute (scheduling and parsing, modeled):          ${pct(p.planning.computeMs)}`,
          `      state writes (lease, claims, launch templates):     ${pct(p.planning.writesMs)}`,
          `      other waits (lease held by another run, retries):   ${pct(p.planning.otherMs)}`,
        ]
      : []),
    `    launch API calls (nodeclaim written -> launched):       ${pct(p.launchApiMs)}`,
    `    EC2 boot and kubelet (launched -> node Ready):          ${pct(p.bootMs)}`,
    `    pod start (node Ready -> pod Running):                  ${pct(p.podStartMs)}`,
  ];
}

/** Where the wall time went (the speed only shortens the waiting part). */
function wallLines(s: ScenarioSummary): string[] {
  const w = s.wallSplitMs;
  if (!w) return [];
  return [
    `wall time: ${seconds(w.joiner)} joiner computing (charged by the compute model), ${seconds(w.simulator)} simulator working (0 virtual), ${seconds(w.waiting)} waiting on timers (at --speed)`,
  ];
}

/** The summary as lines of text (nodes grouped by type, zone and capacity type). */
export function formatSummary(result: Pick<ScenarioResult, 'summary' | 'failures' | 'notes' | 'ok'>): string {
  const s = result.summary;
  const groups = new Map<string, number>();
  for (const n of s.nodes) {
    const key = `${n.instanceType} ${n.zone} ${n.capacityType}`;
    groups.set(key, (groups.get(key) ?? 0) + 1);
  }
  const lines = [
    '',
    `scenario ${s.scenario}: ${seconds(s.virtualDurationMs)} virtual in ${seconds(s.wallDurationMs)} wall`,
    `pods: ${s.pods.total} total, ${s.pods.running} running, ${s.pods.pending} pending`,
    `nodes: ${s.nodes.length}${[...groups].map(([k, v]) => `\n  ${v} x ${k}`).join('')}`,
    ...s.nodes.flatMap(nodeLines),
    `hourly cost: ${hourlyCostText(s)}`,
    'latency (virtual time):',
    `  pod pending -> nodeclaim launched: ${pct(s.latency.unschedulableToLaunchMs)}`,
    `  pod pending -> node Ready:         ${pct(s.latency.unschedulableToReadyMs)}`,
    `  pod pending -> pod Running:        ${pct(s.latency.unschedulableToRunningMs)}`,
    ...phaseLines(s),
    `orphaned instances: ${s.orphanedInstances}${s.orphans.length > 0 ? ` (${s.orphans.join(', ')})` : ''}`,
    ...formatIam(s.iam),
    ...disruptionLines(s),
    ...wallLines(s),
  ];
  for (const note of result.notes) lines.push(`note: ${note}`);
  if (result.failures.length === 0) lines.push('expectations: all hold');
  else lines.push('expectations failed:', ...result.failures.map((f) => `  ${f}`));
  return lines.join('\n');
}
