/**
 * `npm run iam:minimality`: proves the stack's IAM policies minimal and sufficient. Runs the
 * shipped scenarios once with the full stack (recording every authorization request), replays
 * the requests against every single edit of the policies (each statement removed, each
 * condition made to require a value nobody sends), then, for every edit, runs
 * `joiner simulate --stack-template <edited template>` of the scenario the replay names and
 * checks it exits 1 printing the IAM denial. Prints one table row per edit.
 *
 *   npm run iam:minimality                      every shipped scenario, every edit end to end
 *   npm run iam:minimality -- --replay-only     no end-to-end runs (seconds instead of minutes)
 *   npm run iam:minimality -- --scenarios seed-000-multus,node-repair
 *   npm run iam:minimality -- --save runs.json   keep the recordings (--load runs.json reuses them)
 *
 * Exit 0 when every edit is noticed (by the replay and, unless --replay-only, end to end).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  describeReplayDenial,
  type RecordedRun,
} from '../functions/simulator/iam/minimality/authorization-replay.js';
import { checkMinimality } from '../functions/simulator/iam/minimality/minimality-check.js';
import { recordScenarioRun } from '../functions/simulator/iam/minimality/record-run.js';
import { unexercisedReason } from '../functions/simulator/iam/minimality/unexercised.js';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const args = process.argv.slice(2);
const replayOnly = args.includes('--replay-only');
const only = args[args.indexOf('--scenarios') + 1];
const names = (args.includes('--scenarios') ? only.split(',') : shippedScenarios()).map((n) =>
  n.replace(/\.yaml$/, ''),
);

/** Runs saved with --save (times revived). */
function loadRuns(file: string): RecordedRun[] {
  const runs = JSON.parse(readFileSync(file, 'utf8')) as RecordedRun[];
  return runs.map((run) => ({
    ...run,
    requests: run.requests.map((r) => ({ ...r, time: new Date(r.time as unknown as string) })),
  }));
}

function shippedScenarios(): string[] {
  return readdirSync(join(ROOT, 'scenarios')).filter((f) => f.endsWith('.yaml'));
}

const option = (name: string): string | undefined =>
  args.includes(name) ? args[args.indexOf(name) + 1] : undefined;
const runs: RecordedRun[] = [];
const files = new Map<string, string>();
const load = option('--load');
if (load) {
  for (const run of loadRuns(load)) {
    runs.push(run);
    files.set(run.scenario, join(ROOT, 'scenarios', `${run.scenario}.yaml`));
  }
}
for (const name of load ? [] : names) {
  const file = join(ROOT, 'scenarios', `${name}.yaml`);
  const started = Date.now();
  const { run, result } = await recordScenarioRun(file);
  const wall = ((Date.now() - started) / 1000).toFixed(1);
  console.log(
    `recorded ${name}: ${run.requests.length} distinct requests in ${wall} s${result.ok ? '' : ` (FAILED: ${result.failures[0]})`}`,
  );
  if (!result.ok) process.exitCode = 1;
  runs.push(run);
  files.set(run.scenario, file);
}

const save = option('--save');
if (save) writeFileSync(save, JSON.stringify(runs));

const replayStarted = Date.now();
const outcomes = checkMinimality(runs, 'first');
console.log(
  `\nreplayed ${outcomes.length} edits against ${runs.reduce((n, r) => n + r.requests.length, 0)} requests in ${Date.now() - replayStarted} ms\n`,
);

const dir = mkdtempSync(join(tmpdir(), 'joiner-iam-minimality-'));
const rows: string[][] = [['edit', 'replay: first denied request', 'end to end']];
for (const { mutation, denials } of outcomes) {
  const first = denials[0];
  let e2e = replayOnly ? 'skipped' : '';
  if (!first) {
    const reason = unexercisedReason(mutation);
    rows.push([mutation.id, reason ? `not exercised: ${reason}` : 'NOTHING DENIED', '-']);
    if (!reason) process.exitCode = 1;
    continue;
  }
  if (!replayOnly) {
    const run = runs.find((r) => r.scenario === first.scenario)!;
    const templateFile = join(dir, `${mutation.id.replace(/[^\w.-]+/g, '_')}.json`);
    writeFileSync(templateFile, JSON.stringify(mutation.apply(run.template)));
    const started = Date.now();
    const simulated = spawnSync(
      process.execPath,
      [
        join(ROOT, 'bin/joiner.js'),
        'simulate',
        files.get(run.scenario)!,
        '--stack-template',
        templateFile,
        '--speed',
        '200',
      ],
      { encoding: 'utf8', cwd: ROOT, maxBuffer: 256 * 1024 * 1024 },
    );
    const printed = `${simulated.stdout}\n${simulated.stderr}`.includes(`IAM denied ${first.action}`);
    const ok = simulated.status === 1 && printed;
    e2e = `${ok ? 'ok' : 'NOT NOTICED'}: exit ${simulated.status}, denial ${printed ? '' : 'not '}printed (${((Date.now() - started) / 1000).toFixed(0)} s)`;
    if (!ok) process.exitCode = 1;
  }
  rows.push([mutation.id, describeReplayDenial(first), e2e]);
}

const widths = rows[0].map((_, c) => Math.max(...rows.map((r) => r[c].length)));
for (const [i, row] of rows.entries()) {
  console.log(row.map((cell, c) => cell.padEnd(widths[c])).join(' | '));
  if (i === 0) console.log(widths.map((w) => '-'.repeat(w)).join('-|-'));
}
