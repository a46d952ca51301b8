// `npm run typecheck`: the TypeScript check of the whole tree, incremental. tsconfig.json keeps
// the compiler's build info under node_modules/.cache, and `tsc -b` skips the check when no source
// changed since the last clean check, or re-checks only what a change can affect. A run with
// errors is never recorded as clean, so errors are reported again until fixed.
//
// `tsc -b` decides from the project's own files: it does not notice a change of the types under
// node_modules. npm rewrites node_modules/.package-lock.json on every install, so when that file
// is newer than the build info, the build info is dropped and the check starts from scratch.
//
// `tsc -b` also leaves the build info untouched when a check changes nothing in it (a checkout or
// an edit that was undone makes sources newer without changing them): every later run would then
// find the build info older than its inputs and check again (about 20 s of CPU instead of 1). So
// after a clean check the build info is dated to when the check started: a source saved during the
// check stays newer and is checked next time.
import { spawnSync } from 'node:child_process';
import { rmSync, statSync, utimesSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const buildInfo = `${root}node_modules/.cache/tsc/joiner.tsbuildinfo`;
const installed = `${root}node_modules/.package-lock.json`;

const mtime = (file) => {
  try {
    return statSync(file).mtimeMs;
  } catch {
    return undefined;
  }
};

const built = mtime(buildInfo);
const install = mtime(installed);
if (built !== undefined && (install === undefined || install > built)) rmSync(buildInfo, { force: true });

const started = new Date();
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
const { status, error } = spawnSync(process.execPath, [tsc, '-b', ...process.argv.slice(2)], {
  cwd: root,
  stdio: 'inherit',
});
if (error) throw error;
const after = mtime(buildInfo);
if (status === 0 && after !== undefined && after < started.getTime()) utimesSync(buildInfo, started, started);
process.exit(status ?? 1);
