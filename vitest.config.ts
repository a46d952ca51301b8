import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

/**
 * Unit test files share their worker's loaded modules. The others (simulated clouds, the CDK, the
 * CLI end to end) keep a fresh worker process each.
 */
const SHARED = ['test/unit/**/*.test.ts'];
/**
 * The CDK tests (test/infra) share their worker's loaded modules too, in workers of their own (a
 * worker holding aws-cdk-lib is no place for the unit tests' timing-sensitive cases). Each file
 * builds its own App and stacks and changes no process state; loading aws-cdk-lib once per worker
 * instead of once per file took test/infra from 235 s of CPU to 52 s (its 141 tests pass shared).
 */
const CDK = ['test/infra/**/*.test.ts'];

/** What both projects share. */
const common = {
  environment: 'node',
  testTimeout: 30_000,
  hookTimeout: 30_000,
  pool: 'forks',
  // Transformed sources are kept under node_modules/.experimental-vitest-cache, keyed by content,
  // so a run transforms only what changed since the last one (about a quarter less CPU for a
  // rerun of the scheduling unit tests).
  experimental: { fsModuleCache: true },
  // Node 20 is supported (see README); the SDK's notice about its own future releases is noise here.
  env: { AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true' },
} as const;

export default defineConfig({
  test: {
    // One worker per core: vitest's default keeps a core for itself, which leaves a 2-core machine
    // with one worker. Every simulated server binds a free port, so files run side by side.
    maxWorkers: Math.max(2, availableParallelism()),
    // Builds dist/cli once per run, so tests that start bin/joiner.js run the current sources.
    globalSetup: ['scripts/build-cli.mjs'],
    projects: [
      {
        test: {
          ...common,
          name: 'shared',
          include: SHARED,
          // The files of one worker share its loaded modules instead of importing them again for
          // each file: test/unit takes 58 s of CPU instead of 138 s.
          isolate: false,
        },
      },
      { test: { ...common, name: 'cdk', include: CDK, isolate: false } },
      {
        test: { ...common, name: 'isolated', include: ['test/**/*.test.ts'], exclude: [...SHARED, ...CDK] },
      },
    ],
  },
});
