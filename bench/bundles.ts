/**
 * `npm run bench:bundles`: bundles every handler exactly as the stack does (esbuild, ESM,
 * Node.js 22, arm64 Lambda) and reports per function the bundle size and the cold-start import
 * time, measured by importing the bundle in a fresh Node.js process (median of several runs).
 * Exits 1 when a bundle breaks a target.
 */
import { execFileSync } from 'node:child_process';
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { FUNCTIONS, type FunctionName } from '../functions/shared/event-sources.js';
import { BUNDLE_FILE, bundleHandler } from '../lib/handler-bundle.js';

const MAX_BYTES = 1.5 * 1024 * 1024;
const MAX_IMPORT_MS = 250;
const RUNS = 5;

/** Milliseconds a fresh Node.js process takes to import the bundle and find its handler. */
function importMs(file: string): number {
  const script = `const t = performance.now(); const m = await import(${JSON.stringify(pathToFileURL(file).href)});
if (typeof m.handler !== 'function') throw new Error('no handler export');
process.stdout.write(String(performance.now() - t));`;
  const out = execFileSync(process.execPath, ['--input-type=module', '-e', script], {
    encoding: 'utf8',
    env: { ...process.env, AWS_REGION: 'us-west-2', NODE_OPTIONS: '--enable-source-maps' },
  });
  return Number(out);
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

interface Row {
  readonly name: FunctionName;
  readonly bytes: number;
  readonly importMs: number;
}

function measure(name: FunctionName): Row {
  const file = join(bundleHandler(name), BUNDLE_FILE);
  const runs = Array.from({ length: RUNS }, () => importMs(file));
  return { name, bytes: statSync(file).size, importMs: median(runs) };
}

const rows = (Object.keys(FUNCTIONS) as FunctionName[]).map(measure);
console.log(
  `function       size (KiB)   import (ms, median of ${RUNS})   targets: <= 1536 KiB, <= ${MAX_IMPORT_MS} ms`,
);
let failed = false;
for (const row of rows) {
  const over = row.bytes > MAX_BYTES || row.importMs > MAX_IMPORT_MS;
  failed ||= over;
  const kib = (row.bytes / 1024).toFixed(1).padStart(10);
  console.log(
    `${row.name.padEnd(14)} ${kib}   ${row.importMs.toFixed(1).padStart(10)}${over ? '   OVER TARGET' : ''}`,
  );
}
process.exitCode = failed ? 1 : 0;
