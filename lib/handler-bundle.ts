import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type BuildOptions, buildSync } from 'esbuild';
import { FUNCTIONS, type FunctionName } from '../functions/shared/event-sources.js';

/** Root of the joiner project (where `functions/` lives). */
export const PROJECT_ROOT = fileURLToPath(new URL('..', import.meta.url));

/** File name of the bundled handler; the Lambda handler is `index.handler`. */
export const BUNDLE_FILE = 'index.mjs';

/** Lets CommonJS dependencies call `require` inside the ESM bundle. */
const REQUIRE_SHIM =
  "import { createRequire as __joinerCreateRequire } from 'node:module'; const require = __joinerCreateRequire(import.meta.url);";

/**
 * The esbuild options of a handler bundle: one ESM file for Node.js 22 on arm64 (esbuild output
 * does not depend on the CPU), minified, with an external source map. The stack and the bundle
 * benchmark both use these, so the benchmark measures what is deployed.
 */
export function handlerBuildOptions(name: FunctionName, outdir: string): BuildOptions {
  return {
    entryPoints: [join(PROJECT_ROOT, 'functions', 'handlers', `${FUNCTIONS[name].entry}.ts`)],
    outfile: join(outdir, BUNDLE_FILE),
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
