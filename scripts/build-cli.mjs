// Compiles the joiner CLI (bin/joiner.ts and what it imports) to dist/cli with esbuild, so
// `joiner` starts without compiling TypeScript. `npm ci` runs it (the `prepare` script);
// `npm run build:cli` runs it after a change. Dependencies stay in node_modules (not bundled),
// and each command's heavy modules are separate chunks loaded only when that command runs.
import { readFile, rm } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = fileURLToPath(new URL('..', import.meta.url));

/**
 * JSON data files (the bundled instance catalog) become `JSON.parse("...")`: V8 parses a JSON
 * string several times faster than the same data as a JavaScript object literal.
 */
const jsonAsParse = {
  name: 'json-as-parse',
  setup(b) {
    b.onLoad({ filter: /\.json$/ }, async (args) => {
      const text = await readFile(args.path, 'utf8');
      return {
        contents: `export default JSON.parse(${JSON.stringify(JSON.stringify(JSON.parse(text)))});`,
        loader: 'js',
      };
    });
  },
};

/** Builds dist/cli/joiner.js (and its chunks) from bin/joiner.ts. */
export async function buildCli() {
  const outdir = `${root}dist/cli`;
  await rm(outdir, { recursive: true, force: true });
  await build({
    absWorkingDir: root,
    entryPoints: ['bin/joiner.ts'],
    outdir,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    packages: 'external',
    chunkNames: 'chunks/[name]-[hash]',
    sourcemap: 'linked',
    logLevel: 'warning',
    plugins: [jsonAsParse],
  });
  return outdir;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await buildCli();

/** vitest globalSetup: the tests that start `bin/joiner.js` run the CLI built from this tree. */
export async function setup() {
  await buildCli();
}
