import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { type BuildOptions, type BuildResult, build, type Metafile } from 'esbuild';
import { FUNCTIONS, type FunctionName } from '../functions/shared/event-sources.js';
import { sdkSchemaKeys } from './sdk-schema-keys.js';

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
 * dynamic `import()` goes to a chunk under `chunks/` that a cold start does not read: the
 * adapters of the AWS services (state table, EC2, queues, bus), loaded on a port's first call, and
 * the kubeconfig client, used outside Lambda. The {@link sdkSchemaKeys} plugin lets esbuild drop
 * the EC2 and SSM schemas of the commands joiner never sends. The stack and the bundle benchmark
 * both use these options, so the benchmark measures what is deployed.
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
    plugins: [sdkSchemaKeys],
  };
}

/**
 * Bundles one handler into `outdir` with {@link handlerBuildOptions} (and `overrides`). It uses
 * esbuild's asynchronous API, the only one that runs plugins.
 */
export function buildHandler(
  name: FunctionName,
  outdir: string,
  overrides: BuildOptions = {},
): Promise<BuildResult> {
  return build({ ...handlerBuildOptions(name, outdir), ...overrides });
}

/** The script that runs {@link buildHandler} for `bundleHandler`, and the TypeScript loader it runs with. */
const BUNDLE_PROCESS = fileURLToPath(new URL('./bundle-handler-process.ts', import.meta.url));
const TSX_LOADER = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;

const bundled = new Map<FunctionName, string>();

/**
 * Bundles one handler into a fresh directory and returns that directory (a Lambda asset).
 * Constructs need the asset synchronously, so the build runs in a child process. Bundles are built
 * once per process: every stack synthesized in it shares them.
 */
export function bundleHandler(name: FunctionName): string {
  const cached = bundled.get(name);
  if (cached) return cached;
  const outdir = mkdtempSync(join(tmpdir(), `joiner-${name}-`));
  try {
    execFileSync(process.execPath, ['--import', TSX_LOADER, BUNDLE_PROCESS, name, outdir], {
      stdio: ['ignore', 'ignore', 'pipe'],
      encoding: 'utf8',
    });
  } catch (error) {
    const stderr = (error as { stderr?: string }).stderr?.trim();
    throw new Error(`bundling the ${name} handler failed: ${stderr || (error as Error).message}`);
  }
  bundled.set(name, outdir);
  return outdir;
}

/**
 * The outputs a cold start reads, as the metafile names them: the entry `index.mjs` of a build
 * into `outdir` and every output it reaches through static imports. Chunks reached only through
 * a dynamic `import()` are left out.
 */
export function coldStartOutputs(metafile: Metafile, outdir: string): string[] {
  const byPath = new Map(Object.keys(metafile.outputs).map((name) => [resolve(name), name]));
  const entry = byPath.get(resolve(outdir, BUNDLE_FILE));
  if (entry === undefined) throw new Error(`esbuild wrote no ${BUNDLE_FILE} in ${outdir}`);
  const loaded = new Set<string>();
  const pending = [entry];
  for (let name = pending.pop(); name !== undefined; name = pending.pop()) {
    if (loaded.has(name)) continue;
    loaded.add(name);
    for (const imported of metafile.outputs[name].imports) {
      const target = byPath.get(resolve(imported.path));
      if (imported.kind === 'import-statement' && target !== undefined) pending.push(target);
    }
  }
  return [...loaded];
}

/** The source files (named as in the metafile) with code in the outputs a cold start reads. */
export function coldStartInputs(metafile: Metafile, outdir: string): Set<string> {
  const inputs = new Set<string>();
  for (const name of coldStartOutputs(metafile, outdir)) {
    for (const [input, { bytesInOutput }] of Object.entries(metafile.outputs[name].inputs))
      if (bytesInOutput > 0) inputs.add(input);
  }
  return inputs;
}
