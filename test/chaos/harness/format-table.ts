/** The chaos table: one row per seed, invariant violations first (all must be 0), then the faults met. */
import type { ChaosReport } from './run-chaos.js';

const COLUMNS: ReadonlyArray<[string, (r: ChaosReport) => number | string]> = [
  ['seed', (r) => r.seed],
  ['pods', (r) => r.pods],
  ['double launches', (r) => r.invariants.doubleLaunches],
  ['orphans after GC', (r) => r.invariants.orphansAfterGc],
  ['limit violations', (r) => r.invariants.limitViolations],
  ['PDB violations', (r) => r.invariants.pdbViolations],
  ['pods lost', (r) => r.invariants.podsLost],
  ['pods > 3 cycles', (r) => r.invariants.podsLate],
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

/** A Markdown table of the reports. */
export function formatTable(reports: readonly ChaosReport[]): string {
  const header = `| ${COLUMNS.map(([name]) => name).join(' | ')} |`;
  const rule = `|${COLUMNS.map(() => '---:|').join('')}`;
  const rows = reports.map((r) => `| ${COLUMNS.map(([, value]) => value(r)).join(' | ')} |`);
  return [header, rule, ...rows].join('\n');
}
