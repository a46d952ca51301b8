import { availableParallelism, loadavg } from 'node:os';
import { configDefaults, defineConfig } from 'vitest/config';
import { LongestFirst } from './test/helpers/longest-first.js';

/**
 * Most files share their worker's loaded modules (`isolate: false`): a worker runs one file after
 * another in one process instead of starting a fresh process and importing the simulator, the SDK
 * clients and the handlers again for each file. A shared file leaves no process state behind: it
 * closes what it starts (clouds, servers, clients), its environment variables are put back after
 * it (test/helpers/restore-process-env.ts), and its handlers and clients are built per simulated
 * cloud, never module singletons. Sharing took 30 files of test/integration (simulated EC2 and
 * API server) from 64 s of CPU to 14 s.
 */
const UNIT = ['test/unit/**/*.test.ts'];
/**
 * The CDK tests share workers of their own (a worker holding aws-cdk-lib is no place for the unit
 * tests' timing-sensitive cases). Each file builds its own App and stacks; loading aws-cdk-lib
 * once per worker instead of once per file took test/infra from 235 s of CPU to 52 s.
 */
const CDK = ['test/infra/**/*.test.ts'];
/**
 * Unit tests of the simulated IAM that synthesize joiner's stack (test/unit/simulator/iam/
 * synthesized-stack.ts) run with the CDK tests: in a unit worker each paid for loading aws-cdk-lib
 * once more (about 10 s of CPU each with the built-in validation on), and in one worker they share
 * one synth of the same context.
 */
const STACK_UNIT = [
  'test/unit/simulator/iam/account-authorizer.test.ts',
  'test/unit/simulator/iam/own-ssm-parameters.test.ts',
  'test/unit/simulator/iam/stack-iam.test.ts',
];
/** The simulated clouds of the integration tests (69 files, all passing shared). */
const CLOUDS = ['test/integration/**/*.test.ts'];
/**
 * The end-to-end and chaos scenarios share their workers too: each one warms up the simulator, the
 * SDK clients and the handlers once per worker instead of once per file (the whole suite went from
 * 738 s of CPU to 535 s on a quiet 2-core machine).
 */
const SCENARIOS = ['test/e2e/**/*.test.ts', 'test/chaos/**/*.test.ts'];

/**
 * How many files run at once: on an idle machine one more than there are cores (3 on a 2-core
 * machine; vitest's default keeps a core for itself, which leaves a 2-core machine with one
 * worker). About a quarter of a worker's time is spent waiting rather than computing (kubectl and
 * CLI processes, servers starting, the clock's wall-time waits), and the extra worker computes
 * meanwhile. On a machine already busy with other work (a one-minute load average of at least
 * twice the core count) there are no idle cores to fill: one worker per core, since a third worker
 * would only stretch each file towards its timeout. The bar is twice the cores, not the cores,
 * because what ran just before (`npm ci`, an earlier test run) leaves the one-minute average near
 * the core count for a while on a machine that is otherwise idle. Scenarios run on the virtual clock, so the count changes how long a file
 * takes, not what it decides. Every simulated server binds a free port, so files run side by side.
 */
function testWorkers(): number {
  const cores = availableParallelism();
  const busy = loadavg()[0] >= 2 * cores;
  return busy ? Math.max(2, cores) : Math.max(3, cores + 1);
}

/** What every project shares. */
const common = {
  environment: 'node',
  testTimeout: 30_000,
  hookTimeout: 30_000,
  pool: 'forks',
  isolate: false,
  // Puts back the environment variables a file changed, for the next file of its worker; with
  // JOINER_TEST_PROFILE set, logs each file's wall, CPU and idle time (test/helpers/file-profile.ts).
  setupFiles: ['test/helpers/restore-process-env.ts', 'test/helpers/file-profile.ts'] as string[],
  // Transformed sources are kept under node_modules/.experimental-vitest-cache, keyed by content,
  // so a run transforms only what changed since the last one (about a quarter less CPU for a
  // rerun of the scheduling unit tests).
  experimental: { fsModuleCache: true },
  env: {
    // Node 20 is supported (see README); the SDK's notice about its own future releases is noise here.
    AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
    // aws-cdk-lib's built-in CloudFormation validation at every synth: it starts a WebAssembly
    // engine in each process that synthesizes (about 5 s of CPU) and adds about a second per synth,
    // and here it only printed warnings. test/infra/cloudformation-validation.test.ts runs it
    // strict on the stack instead. Child processes (the CDK app entry, the CLI) inherit it.
    CDK_VALIDATION: 'false',
  },
} as const;

export default defineConfig({
  test: {
    // See testWorkers above; `npx vitest run --maxWorkers=N` (or `npm test -- --maxWorkers=N`) overrides it.
    maxWorkers: testWorkers(),
    // The longest files first, so the workers finish together (see LongestFirst).
    sequence: { sequencer: LongestFirst },
    // Builds dist/cli once per run, so tests that start bin/joiner.js run the current sources.
    globalSetup: ['scripts/build-cli.mjs'],
    projects: [
      { test: { ...common, name: 'scenarios', include: SCENARIOS } },
      { test: { ...common, name: 'clouds', include: CLOUDS } },
      { test: { ...common, name: 'cdk', include: [...CDK, ...STACK_UNIT] } },
      {
        test: {
          ...common,
          name: 'shared',
          include: UNIT,
          exclude: [...configDefaults.exclude, ...STACK_UNIT],
        },
      },
    ],
  },
});
