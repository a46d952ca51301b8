/**
 * Determinism check (outcomes independent of host load): plays one scale-out and consolidation
 * scenario twice, the second time next to CPU-burning neighbour processes, and compares the
 * decisions (launches and removals: nodes, types, reasons, order) and their virtual times. Prints
 * both logs and exits 1 when the decisions differ; `npm run bench:determinism -- 3` repeats it.
 * The same check runs in `npm test` (test/e2e/determinism.test.ts, at speed Infinity); this one
 * runs at speed 1000 and prints the virtual times.
 *
 * Run: npm run bench:determinism
 */
import type { ScenarioResult } from '../functions/simulator/scenario/run-scenario.js';
import {
  decisions,
  decisionTimes,
  playBesideBurners,
  playDeterminismScenario,
} from '../test/e2e/determinism-check.js';

const rounds = Math.max(1, Number(process.argv[2] ?? 1) || 1);

function print(label: string, r: ScenarioResult, lines: string[], times: string[]): void {
  const failed = r.failures.length ? `, failed: ${r.failures.join('; ')}` : '';
  console.log(`${label} (${lines.length} decisions${failed}):`);
  for (let i = 0; i < lines.length; i++) console.log(`  ${times[i].padStart(9)} s  ${lines[i]}`);
}

let allSame = true;
for (let round = 1; round <= rounds; round++) {
  const started = performance.now();
  const idle = await playDeterminismScenario();
  const busy = await playBesideBurners(2);
  const [a, b] = [decisions(idle), decisions(busy)];
  const [ta, tb] = [decisionTimes(idle), decisionTimes(busy)];
  console.log(`round ${round} (${((performance.now() - started) / 1000).toFixed(1)} s wall)`);
  print('idle run', idle, a, ta);
  print('busy run', busy, b, tb);
  const same = a.length === b.length && a.every((line, i) => line === b[i]);
  const sameTimes = ta.length === tb.length && ta.every((t, i) => t === tb[i]);
  console.log(
    `decisions: ${same ? 'identical' : 'DIFFERENT'}; virtual times: ${sameTimes ? 'identical' : 'different'}`,
  );
  allSame &&= same && idle.failures.length === 0 && busy.failures.length === 0;
}
process.exitCode = allSame ? 0 : 1;
