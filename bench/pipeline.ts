/**
 * Pipeline benchmark (`npm run bench:pipeline`, `-- --json`): 100 and 1000 pending pods go through
 * the webhook -> EventBridge -> SQS (1 s batching window) -> provisioner path of the simulated cloud
 * with joiner's real handlers. Reports the provisioner's handler time (the Lambda runner's
 * invocation log) and its scheduling time (its own log), and the wall-clock latency from a pod
 * turning Unschedulable to the CreateFleet of the nodeclaim planned for it, against the targets.
 * Each size starts with a warm provisioner (one empty batch first).
 * Numbers are printed, never asserted.
 */
import './lib/quiet-sdk.js';
import { type SimulatedCloud, startSimulatedCloud } from '../functions/simulator/cloud.js';
import { applyManifests } from '../functions/simulator/scenario/cluster-manifests.js';
import { installJoinerHandlers } from '../functions/simulator/scenario/joiner-handlers.js';
import { LatencyRecorder, percentile } from '../functions/simulator/scenario/latency-recorder.js';
import type { Manifest } from '../functions/simulator/scenario/load-scenario.js';
import { installManifests } from '../functions/simulator/scenario/run-scenario.js';
import { SIMULATOR_CREDENTIALS } from '../functions/simulator/sqs/sqs-simulator.js';
import { waitForLaunches } from './lib/wait-for-launches.js';
import { type BurstResult, printBurst, runBurst } from './pipeline-burst.js';

const TARGETS = { provisionerComputeMsFor100: 200, unschedulableToFleetP99Ms: 1500 };
const TIMEOUT_MS = 120_000;
const SETTLE_MS = 5_000;

interface Result {
  readonly pods: number;
  readonly podsLaunched: number;
  readonly provisionerInvocations: number;
  readonly provisionerHandlerMs: { readonly first: number; readonly max: number; readonly total: number };
  readonly schedulingMs: { readonly max: number; readonly total: number };
  /** Wall-clock ms (joiner, the in-process simulated services, and the modeled AWS latencies). */
  readonly unschedulableToCreateFleetMs: {
    readonly p50?: number;
    readonly p99?: number;
    readonly max?: number;
  };
  /** Virtual ms of the simulation's clock: what a cluster would see (the figure the README quotes). */
  readonly unschedulableToCreateFleetVirtualMs: {
    readonly p50?: number;
    readonly p99?: number;
    readonly max?: number;
  };
  readonly wallMs: number;
}

const nodePool: Manifest[] = [
  {
    apiVersion: 'karpenter.sh/v1alpha5',
    kind: 'Provisioner',
    metadata: { name: 'default' },
    spec: {
      requirements: [{ key: 'karpenter.sh/capacity-type', operator: 'In', values: ['spot', 'on-demand'] }],
      limits: { resources: { cpu: 100_000 } },
      provider: {
        subnetSelector: { 'karpenter.sh/discovery': 'joiner-sim' },
        securityGroupSelector: { 'karpenter.sh/discovery': 'joiner-sim' },
      },
    },
  },
];

function deployment(replicas: number): Manifest {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'inflate', namespace: 'default' },
    spec: {
      replicas,
      selector: { matchLabels: { app: 'inflate' } },
      template: {
        metadata: { labels: { app: 'inflate' } },
        spec: { containers: [{ name: 'inflate', image: 'pause', resources: { requests: { cpu: '1' } } }] },
      },
    },
  };
}

async function run(pods: number): Promise<Result> {
  process.env.AWS_ACCESS_KEY_ID ??= SIMULATOR_CREDENTIALS.accessKeyId;
  process.env.AWS_SECRET_ACCESS_KEY ??= SIMULATOR_CREDENTIALS.secretAccessKey;
  const cloud = await startSimulatedCloud({ seed: 1, autoAdvance: 1, timeScale: 1 });
  const runs: { scheduling: number }[] = [];
  const t0 = Date.now();
  await installJoinerHandlers(cloud, (line) => {
    if (trace && line.includes(' provisioner ')) process.stderr.write(`\n+${Date.now() - t0} ms ${line}`);
    if (!line.includes('provisioning run finished')) return;
    const fields = JSON.parse(line.slice(line.indexOf('{'))) as Record<string, number>;
    runs.push({ scheduling: fields['scheduling-ms'] ?? 0 });
  });
  const recorder = new LatencyRecorder(cloud.kube.store.api.store, cloud.ec2, () => cloud.clock.now(), 2);
  try {
    await applyManifests(cloud.kube.store, [...installManifests(cloud), ...nodePool]);
    // A warm function: one empty batch after the install, which loaded the adapters a function
    // loads on its first call to an AWS service (bench:bundles measures cold starts).
    await cloud.runner.invoke('provisioner', { Records: [] });
    const started = Date.now();
    await applyManifests(cloud.kube.store, [deployment(pods)]);
    const launchOf = await waitForLaunches(cloud, recorder, pods, {
      pollMs: 250,
      settleMs: SETTLE_MS,
      timeoutMs: TIMEOUT_MS,
      describe: (launched) =>
        `${pods} pods: ${recorder.pods.size} seen, ${[...recorder.pods.values()].filter((p) => p.unschedulable).length} unschedulable, ${launched} on launched nodeclaims`,
    });
    await cloud.runner.idle();
    return measure(cloud, recorder, launchOf, runs, pods, Date.now() - started);
  } finally {
    recorder.stop();
    await cloud.close();
  }
}

function measure(
  cloud: SimulatedCloud,
  recorder: LatencyRecorder,
  launchOf: Map<string, string>,
  runs: { scheduling: number }[],
  pods: number,
  wallMs: number,
): Result {
  const invocations = cloud.runner
    .invocations()
    .filter((i) => i.functionName === 'provisioner' && i.records > 0);
  const durations = invocations.map((i) => i.durationMs);
  if (trace) for (const i of invocations) process.stderr.write(`\ninvocation ${JSON.stringify(i)}`);
  const latencies: number[] = [];
  const virtual: number[] = [];
  for (const pod of recorder.pods.values()) {
    const instanceId = launchOf.get(pod.uid);
    const fleet = instanceId ? recorder.instances.get(instanceId) : undefined;
    if (pod.unschedulable && fleet) latencies.push(fleet.wall - pod.unschedulable.wall);
    if (pod.unschedulable && fleet) virtual.push(fleet.virtual - pod.unschedulable.virtual);
  }
  return {
    pods,
    podsLaunched: launchOf.size,
    provisionerInvocations: invocations.length,
    provisionerHandlerMs: {
      first: durations[0] ?? 0,
      max: Math.max(0, ...durations),
      total: durations.reduce((a, b) => a + b, 0),
    },
    schedulingMs: {
      max: Math.max(0, ...runs.map((r) => r.scheduling)),
      total: runs.reduce((a, r) => a + r.scheduling, 0),
    },
    unschedulableToCreateFleetMs: {
      p50: percentile(latencies, 50),
      p99: percentile(latencies, 99),
      max: percentile(latencies, 100),
    },
    unschedulableToCreateFleetVirtualMs: {
      p50: percentile(virtual, 50),
      p99: percentile(virtual, 99),
      max: percentile(virtual, 100),
    },
    wallMs,
  };
}

function print(results: readonly Result[]): void {
  console.log(
    'pipeline benchmark: webhook -> EventBridge -> SQS (1 s batching window) -> provisioner -> CreateFleet',
  );
  console.log('(wall-clock milliseconds on this machine; the simulated services run in the same process)');
  for (const r of results) {
    console.log(
      `\n${r.pods} pending pods: ${r.podsLaunched} placed on launched nodeclaims in ${r.wallMs} ms`,
    );
    console.log(
      `  provisioner invocations: ${r.provisionerInvocations}; handler time first ${r.provisionerHandlerMs.first} ms, ` +
        `max ${r.provisionerHandlerMs.max} ms, total ${r.provisionerHandlerMs.total} ms`,
    );
    console.log(`  scheduling (plan) time: max ${r.schedulingMs.max} ms, total ${r.schedulingMs.total} ms`);
    const l = r.unschedulableToCreateFleetMs;
    console.log(
      `  unschedulable -> CreateFleet (wall): p50 ${l.p50 ?? 'n/a'} ms, p99 ${l.p99 ?? 'n/a'} ms, max ${l.max ?? 'n/a'} ms`,
    );
    const v = r.unschedulableToCreateFleetVirtualMs;
    console.log(
      `  unschedulable -> CreateFleet (virtual, modeled AWS latencies): p50 ${v.p50 ?? 'n/a'} ms, p99 ${v.p99 ?? 'n/a'} ms, max ${v.max ?? 'n/a'} ms`,
    );
  }
  const hundred = results.find((r) => r.pods === 100);
  if (hundred) {
    console.log(
      `\ntarget: provisioner compute for 100 pods <= ${TARGETS.provisionerComputeMsFor100} ms ` +
        `(scheduling max ${hundred.schedulingMs.max} ms, handler max ${hundred.provisionerHandlerMs.max} ms)`,
    );
  }
  for (const r of results) {
    console.log(
      `target: unschedulable -> CreateFleet p99 <= ${TARGETS.unschedulableToFleetP99Ms} ms ` +
        `(${r.pods} pods: ${r.unschedulableToCreateFleetMs.p99 ?? 'n/a'} ms)`,
    );
  }
}

const json = process.argv.includes('--json');
/** `--trace` prints the provisioner's log lines with their wall-clock offset on stderr. */
const trace = process.argv.includes('--trace');
const sizesArg = process.argv.find((a) => a.startsWith('--sizes='));
const sizes = sizesArg
  ? sizesArg
      .slice('--sizes='.length)
      .split(',')
      .map(Number)
      .filter((n) => n > 0)
  : process.argv.includes('--quick')
    ? [100]
    : [100, 1000];
const results: Result[] = [];
for (const pods of sizes) results.push(await run(pods));
/** `--burst=<pods>,<seconds>` (default 2000 over 8 s; `--quick` 200 over 2 s; `--burst=0` skips it). */
const burstArg = process.argv.find((a) => a.startsWith('--burst='))?.slice('--burst='.length);
const [burstPods, burstSeconds] = (burstArg ?? (process.argv.includes('--quick') ? '200,2' : '2000,8'))
  .split(',')
  .map(Number);
const bursts: BurstResult[] = [];
if (burstPods && burstPods > 0) {
  for (const batching of [true, false])
    bursts.push(await runBurst(burstPods, burstSeconds ?? 8, batching, nodePool));
}
if (json) console.log(JSON.stringify({ targets: TARGETS, results, bursts }, null, 2));
else {
  print(results);
  for (const b of bursts) printBurst(b);
}
