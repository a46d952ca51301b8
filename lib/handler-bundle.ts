import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type BuildOptions, buildSync } from 'esbuild';
import { FUNCTIONS, type FunctionName } from '../functions/shared/event-sources.js';

/** Root of the joiner project (where `functions/` lives). */
export const PROJECT_ROOT = fileURLToPath(new URL('..', import.meta.url));

/** Name of the bundled handler's entry file, without extension; the Lambda handler is `index.handler`. */
const ENTRY_NAME = 'index';

/** File name of the bundled handler's entry (what the Lambda runtime imports at init). */
export const BUNDLE_FILE = `${ENTRY_NAME}.mjs`;

/** Lets CommonJS dependencies call `require` inside the ESM bundle (esbuild adds it to every chunk). */
const REQUIRE_SHIM =
  "import { createRequire as __joinerCreateRequire } from 'node:module'; const require = __joinerCreateRequire(import.meta.url);";

/**
 * The esbuild options of a handler bundle: ESM for Node.js 22 on arm64 (esbuild output does not
 * depend on the CPU), minified, with external source maps. Code splitting is on: the entry
 * `index.mjs` holds what the handler imports statically, and each module loaded only through a
 * dynamic `import()` (the kubeconfig client, used outside Lambda) goes to a chunk under `chunks/`
 * that a cold start never reads. The stack and the bundle benchmark both use these options, so
 * the benchmark measures what is deployed.
 */
export function handlerBuildOptions(name: FunctionName, outdir: string): BuildOptions {
  return {
    entryPoints: [join(PROJECT_ROOT, 'functions', 'handlers', `${FUNCTIONS[name].entry}.ts`)],
    outdir,
    entryNames: ENTRY_NAME,
    chunkNames: 'chunks/[name]-[hash]',
    outExtension: { '.js': '.mjs' },
    splitting: true,
    bundle: true,
    platform: 'node',
    target: 'node22',
    format: 'esm',
    mainFields: ['module', 'main'],
    minify: true,
    keepNames: true,
    sourcemap: true,
    sourcesContent: false,
    legalComments: 'none',
    banner: { js: REQUIRE_SHIM },
    logLevel: 'silent',
  };
}

const bundled = new Map<FunctionName, string>();

/**
 * Bundles one handler into a fresh directory and returns that directory (a Lambda asset).
 * Bundles are built once per process: every stack synthesized in it shares them.
 */
export function bundleHandler(name: FunctionName): string {
  const cached = bundled.get(name);
  if (cached) return cached;
  const outdir = mkdtempSync(join(tmpdir(), `joiner-${name}-`));
  try {
    buildSync(handlerBuildOptions(name, outdir));
  } catch (error) {
    throw new Error(`bundling the ${name} handler failed: ${(error as Error).message}`);
  }
  bundled.set(name, outdir);
  return outdir;
}
