/**
 * The chaos table: one row per run (seed × replicas), invariant violations first (all must be 0),
 * then the PDB violations and lost pods traced to the spot reclaims (listed apart: the reclaim,
 * not joiner, decided them), then the faults met.
 */
import { describeFaults } from './attribution.js';
import type { ChaosReport } from './run-chaos.js';

const COLUMNS: ReadonlyArray<[string, (r: ChaosReport) => number | string]> = [
  ['seed', (r) => r.seed],
  ['replicas', (r) => r.replicas],
  ['pods', (r) => r.pods],
  ['double launches', (r) => r.invariants.doubleLaunches],
  ['orphans after GC', (r) => r.invariants.orphansAfterGc],
  ['limit violations', (r) => r.invariants.limitViolations],
  ['PDB violations', (r) => r.invariants.pdbViolations],
  ['pods lost', (r) => r.invariants.podsLost],
  ['pods > 3 cycles', (r) => r.invariants.podsLate],
  ['IAM denials', (r) => r.invariants.iamDenials],
  ['PDB violations: joiner / reclaim', (r) => pair(r.attribution.pdbViolations)],
  ['pods lost: joiner / reclaim', (r) => pair(r.attribution.podsLost)],
  [
    'pods late: joiner / injected faults',
    (r) => `${r.attribution.podsLate.joiner} / ${r.attribution.podsLate['injected fault']}`,
  ],
  ['claim records deleted', (r) => r.faults.claimRecordsDeleted],
  ['deliveries (x3)', (r) => r.faults.deliveries],
  ['failed deliveries', (r) => r.faults.failedDeliveries],
  ['crashes', (r) => r.faults.crashes],
  ['kube 5xx', (r) => r.faults.kube5xx],
  ['DynamoDB throttled', (r) => r.faults.dynamoThrottled],
  ['conditional failures', (r) => r.faults.conditionalFailures],
  ['webhook calls lost', (r) => r.faults.webhookDropped],
  ['ICE offerings', (r) => r.faults.iceOfferings],
  ['spot interrupted', (r) => r.faults.spotInterrupted],
  ['wall s', (r) => Math.round(r.wallMs / 1000)],
];

function pair(counts: { readonly joiner: number; readonly reclaim: number }): string {
  return `${counts.joiner} / ${counts.reclaim}`;
}

/** A Markdown table of the reports, followed by one line per traced fault (if any). */
export function formatTable(reports: readonly ChaosReport[]): string {
  const header = `| ${COLUMNS.map(([name]) => name).join(' | ')} |`;
  const rule = `|${COLUMNS.map(() => '---:|').join('')}`;
  const rows = reports.map((r) => `| ${COLUMNS.map(([, value]) => value(r)).join(' | ')} |`);
  const faults = reports.flatMap((r) => [
    ...describeFaults(r.attribution).map((line) => `- seed ${r.seed}, ${r.replicas} replicas: ${line}`),
    ...r.iamDenied.map(
      (d) =>
        `- seed ${r.seed}, ${r.replicas} replicas: IAM denied ${d.action} on ${d.resource} to ${d.role} (x${d.count})${d.hint ? `: ${d.hint}` : ''}`,
    ),
  ]);
  return [header, rule, ...rows, ...(faults.length > 0 ? ['', ...faults] : [])].join('\n');
}
