// `npm test`: Biome (`npm run lint`), the type check (`npm run typecheck`) and vitest, side by side.
//
// vitest's workers leave a part of the cores idle (they wait on child processes, servers and
// sockets), and the two checks fill it: run one after the other before vitest, the type check
// alone took about 25 s of wall time after an edit to a widely imported module (`tsc -b` checks
// every importer again), and Biome a few seconds more, on every run. The checks' output is held
// back and printed after vitest's, where it is not lost between test results; a check that fails
// is also reported the moment it fails. Exits with the first non-zero status of the three.
// Arguments go to vitest: `npm test -- --maxWorkers=2`.
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const require = createRequire(import.meta.url);

/** Runs `node ARGS` in the repository; with `hold`, keeps its output instead of printing it. */
function run(name, args, hold) {
  const started = performance.now();
  const child = spawn(process.execPath, args, {
    cwd: root,
    stdio: hold ? ['ignore', 'pipe', 'pipe'] : 'inherit',
    env: { ...process.env, ...(hold ? { FORCE_COLOR: process.stdout.isTTY ? '1' : '0' } : {}) },
  });
  const output = [];
  if (hold) {
    child.stdout.on('data', (chunk) => output.push(chunk));
    child.stderr.on('data', (chunk) => output.push(chunk));
  }
  return new Promise((resolve) => {
    const done = (code) => {
      const result = {
        name,
        code,
        seconds: (performance.now() - started) / 1000,
        output: Buffer.concat(output),
      };
      if (hold && code !== 0) {
        process.stderr.write(`\n${name} failed (exit ${code}):\n`);
        process.stderr.write(result.output);
      }
      resolve(result);
    };
    child.on('error', (error) => {
      output.push(Buffer.from(`${error.message}\n`));
      done(1);
    });
    child.on('close', (code, signal) => done(code ?? (signal ? 1 : 0)));
  });
}

const checks = [
  run('lint (biome check .)', [require.resolve('@biomejs/biome/bin/biome'), 'check', '.'], true),
  run('typecheck', [fileURLToPath(new URL('typecheck.mjs', import.meta.url))], true),
];
const vitest = join(dirname(require.resolve('vitest/package.json')), 'vitest.mjs');
const tests = await run('vitest', [vitest, 'run', ...process.argv.slice(2)], false);
const results = [...(await Promise.all(checks)), tests];

for (const r of results.slice(0, 2)) {
  if (r.code !== 0) continue;
  const text = r.output.toString('utf8').trim();
  process.stdout.write(`\n${r.name}: ok in ${r.seconds.toFixed(1)} s${text ? `\n${text}` : ''}\n`);
}
const failed = results.filter((r) => r.code !== 0);
if (failed.length > 0) process.stderr.write(`\nnpm test: failed: ${failed.map((r) => r.name).join(', ')}\n`);
process.exit(failed[0]?.code ?? 0);
