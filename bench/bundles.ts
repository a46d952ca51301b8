/**
 * `npm run bench:bundles`: bundles every handler exactly as the stack does (esbuild, ESM with code
 * splitting, Node.js 22, arm64 Lambda) and reports per function:
 * - cold start: bytes of the entry `index.mjs` plus the chunks it imports statically, i.e. what
 *   the Lambda runtime reads and compiles at init (chunks reached only through a dynamic
 *   `import()` are left out); the size target applies to this column;
 * - asset: every file of the Lambda asset on disk (all chunks and their source maps);
 * - import: the time a fresh Node.js process takes to import `index.mjs` (median of several runs),
 *   less the time its main thread waited for a CPU meanwhile (what an idle machine takes; the
 *   target applies to it), and the wall time;
 * and the load of a whole region's live catalog snapshot (what the provisioner and disruption
 * functions read at cold start, bench/lib/snapshot-load.ts).
 * Exits 1 when a bundle or the snapshot load breaks a target.
 */
import './lib/quiet-sdk.js';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Metafile } from 'esbuild';
import { FUNCTIONS, type FunctionName } from '../functions/shared/event-sources.js';
import { BUNDLE_FILE, buildHandler, coldStartOutputs } from '../lib/handler-bundle.js';
import { measureSnapshotLoad } from './lib/snapshot-load.js';

const MAX_COLD_START_BYTES = 1.5 * 1024 * 1024;
const MAX_IMPORT_MS = 250;
const MAX_SNAPSHOT_LOAD_MS = 100;
const RUNS = 5;

/**
 * Milliseconds a fresh Node.js process takes to import the bundle and find its handler: wall time,
 * and wall time less its main thread's wait for a CPU meanwhile (lib/run-queue.ts).
 */
function importMs(file: string): { wall: number; idle: number } {
  const script = `import { readFileSync } from 'node:fs';
const waited = () => Number(readFileSync('/proc/self/task/' + process.pid + '/schedstat', 'utf8').split(' ')[1]) / 1e6;
const w = waited(); const t = performance.now(); const m = await import(${JSON.stringify(pathToFileURL(file).href)});
const wall = performance.now() - t; const queued = waited() - w;
if (typeof m.handler !== 'function') throw new Error('no handler export');
process.stdout.write(JSON.stringify({ wall, idle: Number.isFinite(queued) ? wall - queued : wall }));`;
  const out = execFileSync(process.execPath, ['--input-type=module', '-e', script], {
    encoding: 'utf8',
    env: { ...process.env, AWS_REGION: 'us-west-2', NODE_OPTIONS: '--enable-source-maps' },
  });
  return JSON.parse(out) as { wall: number; idle: number };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

/** Bytes of the entry output and of every output it reaches through static imports. */
function coldStartBytes(metafile: Metafile, outdir: string): number {
  return coldStartOutputs(metafile, outdir).reduce((sum, name) => sum + metafile.outputs[name].bytes, 0);
}

/** Bytes of every file under `dir`. */
function diskBytes(dir: string): number {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .reduce((sum, entry) => sum + statSync(join(entry.parentPath, entry.name)).size, 0);
}

interface Row {
  readonly name: FunctionName;
  readonly coldStartBytes: number;
  readonly assetBytes: number;
  readonly importMs: number;
  readonly importWallMs: number;
}

async function measure(name: FunctionName): Promise<Row> {
  const outdir = mkdtempSync(join(tmpdir(), `joiner-bench-${name}-`));
  try {
    const { metafile } = await buildHandler(name, outdir, { metafile: true });
    const runs = Array.from({ length: RUNS }, () => importMs(join(outdir, BUNDLE_FILE)));
    return {
      name,
      coldStartBytes: coldStartBytes(metafile as Metafile, outdir),
      assetBytes: diskBytes(outdir),
      importMs: median(runs.map((r) => r.idle)),
      importWallMs: median(runs.map((r) => r.wall)),
    };
  } finally {
    rmSync(outdir, { recursive: true, force: true });
  }
}

const kib = (bytes: number) => (bytes / 1024).toFixed(1).padStart(15);
const rows: Row[] = [];
for (const name of Object.keys(FUNCTIONS) as FunctionName[]) rows.push(await measure(name));
console.log(
  `targets: cold start <= ${MAX_COLD_START_BYTES / 1024} KiB (entry + static chunks), import <= ${MAX_IMPORT_MS} ms`,
);
console.log(
  `function       cold start (KiB)  asset on disk (KiB)   import (ms, median of ${RUNS}: idle-machine wall, i.e. wall less the wait for a CPU; wall)`,
);
let failed = false;
for (const row of rows) {
  const over = row.coldStartBytes > MAX_COLD_START_BYTES || row.importMs > MAX_IMPORT_MS;
  failed ||= over;
  console.log(
    `${row.name.padEnd(14)} ${kib(row.coldStartBytes)}  ${kib(row.assetBytes).padStart(19)}   ${row.importMs.toFixed(1).padStart(10)} ${row.importWallMs.toFixed(1).padStart(8)}${over ? '   OVER TARGET' : ''}`,
  );
}
const snapshot = await measureSnapshotLoad();
const slow = snapshot.loadMs > MAX_SNAPSHOT_LOAD_MS;
failed ||= slow;
console.log(
  `catalog snapshot load (target <= ${MAX_SNAPSHOT_LOAD_MS} ms, idle-machine wall): ${snapshot.loadMs.toFixed(1)} ms median (wall ${snapshot.loadWallMs.toFixed(1)} ms) for ${snapshot.instanceTypes} instance types, ` +
    `${snapshot.offerings} offerings (stored: types ${(snapshot.typesPartBytes / 1024).toFixed(1)} KiB, spot ${(snapshot.spotPartBytes / 1024).toFixed(1)} KiB gzip)${slow ? '   OVER TARGET' : ''}`,
);
process.exitCode = failed ? 1 : 0;
