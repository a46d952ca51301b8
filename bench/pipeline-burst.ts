/**
 * The burst part of `npm run bench:pipeline`: N pending pods created over S seconds (in slices of
 * deployments every 200 ms, four pod sizes) go through webhook -> EventBridge -> SQS ->
 * provisioner with joiner's real handlers, once with the Karpenter-like batch window (1 s idle,
 * 10 s max) and once without it (each SQS batch planned on its own, the behaviour before it).
 * Reports the provisioning runs that created nodeclaims, the planned cost of the result against
 * one plan of the whole burst (the scheduler given every pod at once), and the wall latency from
 * a pod turning Unschedulable to the CreateFleet of its nodeclaim. Numbers are printed, never asserted.
 */
import { createClusterApi } from '../functions/adapters/kube/create-cluster-api.js';
import { bundledCatalog } from '../functions/core/catalog/bundled.js';
import type { Pod } from '../functions/core/model/kube-objects.js';
import { silentLog } from '../functions/core/ports/log.js';
import { readClusterSnapshot } from '../functions/core/provisioning/cluster-snapshot.js';
import { planRun } from '../functions/core/provisioning/plan-run.js';
import { ENV } from '../functions/shared/env.js';
import { type SimulatedCloud, startSimulatedCloud } from '../functions/simulator/cloud.js';
import { applyManifests } from '../functions/simulator/scenario/cluster-manifests.js';
import { installJoinerHandlers } from '../functions/simulator/scenario/joiner-handlers.js';
import { LatencyRecorder, percentile } from '../functions/simulator/scenario/latency-recorder.js';
import type { Manifest } from '../functions/simulator/scenario/load-scenario.js';
import { installManifests } from '../functions/simulator/scenario/run-scenario.js';
import { waitForLaunches } from './lib/wait-for-launches.js';

/** Targets of the burst (issue: one run, cost within 2% of one plan of the whole burst). */
export const BURST_TARGETS = { runsPerBurst: 1, costRatio: 1.02 } as const;

/** What one burst measured. */
export interface BurstResult {
  readonly pods: number;
  readonly seconds: number;
  readonly batching: boolean;
  /** Provisioner invocations with records, and the runs among them that created nodeclaims. */
  readonly invocations: number;
  readonly runsCreating: number;
  readonly nodeClaims: number;
  readonly podsOnClaims: number;
  /** Hourly planned price of the claims the runs created, and of one plan of the whole burst. */
  readonly cost: number;
  readonly singlePlanCost: number;
  readonly costRatio: number;
  readonly unschedulableToCreateFleetMs: { readonly p50?: number; readonly p99?: number };
  /** Wall ms from the first to the last burst pod turning Unschedulable (the burst as joiner saw it). */
  readonly unschedulableSpanMs: number;
  readonly wallMs: number;
}

const SIZES = [
  { cpu: '250m', memory: '512Mi' },
  { cpu: '500m', memory: '1Gi' },
  { cpu: '1', memory: '2Gi' },
  { cpu: '2', memory: '4Gi' },
];
const SLICE_MS = 200;
const TIMEOUT_MS = 180_000;
const SETTLE_MS = 6_000;

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

function slice(i: number, replicas: number): Manifest {
  const size = SIZES[i % SIZES.length] ?? SIZES[0];
  const name = `burst-${i}`;
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name, namespace: 'default' },
    spec: {
      replicas,
      selector: { matchLabels: { app: name } },
      template: {
        metadata: { labels: { app: name, burst: 'true' } },
        spec: { containers: [{ name: 'app', image: 'pause', resources: { requests: size } }] },
      },
    },
  };
}

/** Runs one burst of `pods` pods over `seconds` seconds in a fresh simulated cloud. */
export async function runBurst(
  pods: number,
  seconds: number,
  batching: boolean,
  nodePool: readonly Manifest[],
): Promise<BurstResult> {
  const cloud = await startSimulatedCloud({ seed: 1, autoAdvance: 1, timeScale: 1 });
  if (!batching) {
    const base = cloud.env.bind(cloud);
    cloud.env = () => ({ ...base(), [ENV.batchIdleSeconds]: '0', [ENV.batchMaxSeconds]: '0' });
  }
  const runs: number[] = [];
  await installJoinerHandlers(cloud, (line) => {
    if (!line.includes('provisioning run finished')) return;
    const fields = JSON.parse(line.slice(line.indexOf('{'))) as Record<string, number>;
    runs.push(fields.created ?? 0);
  });
  const recorder = new LatencyRecorder(cloud.kube.store.api.store, cloud.ec2, () => cloud.clock.now(), 2);
  try {
    await applyManifests(cloud.kube.store, [...installManifests(cloud), ...nodePool]);
    await cloud.runner.invoke('provisioner', { Records: [] });
    const started = Date.now();
    const slices = Math.max(1, Math.round((seconds * 1000) / SLICE_MS));
    for (let i = 0; i < slices; i++) {
      const replicas = Math.floor(pods / slices) + (i < pods % slices ? 1 : 0);
      await applyManifests(cloud.kube.store, [slice(i, replicas)]);
      await sleep(Math.max(0, started + (i + 1) * SLICE_MS - Date.now()));
    }
    const launchOf = await waitForLaunches(cloud, recorder, pods, {
      pollMs: 500,
      settleMs: SETTLE_MS,
      timeoutMs: TIMEOUT_MS,
      describe: (launched) => `burst of ${pods}: ${launched} pods on launched nodeclaims`,
    });
    const wallMs = Date.now() - started;
    await cloud.runner.idle();
    const claims = await cloud.stateStore.listNodeClaims();
    const cost = claims.reduce((sum, c) => sum + (c.options[0]?.price ?? 0), 0);
    const singlePlanCost = await planWholeBurst(cloud);
    const latencies: number[] = [];
    for (const pod of recorder.pods.values()) {
      const instanceId = launchOf.get(pod.uid);
      const fleet = instanceId ? recorder.instances.get(instanceId) : undefined;
      if (pod.unschedulable && fleet) latencies.push(fleet.wall - pod.unschedulable.wall);
    }
    const marked = [...recorder.pods.values()].flatMap((p) =>
      p.unschedulable ? [p.unschedulable.wall] : [],
    );
    return {
      pods,
      seconds,
      batching,
      invocations: cloud.runner.invocations().filter((i) => i.functionName === 'provisioner' && i.records > 0)
        .length,
      runsCreating: runs.filter((created) => created > 0).length,
      nodeClaims: claims.length,
      podsOnClaims: launchOf.size,
      cost,
      singlePlanCost,
      costRatio: singlePlanCost > 0 ? cost / singlePlanCost : Number.NaN,
      unschedulableToCreateFleetMs: { p50: percentile(latencies, 50), p99: percentile(latencies, 99) },
      unschedulableSpanMs: marked.length > 0 ? Math.max(...marked) - Math.min(...marked) : 0,
      wallMs,
    };
  } finally {
    recorder.stop();
    await cloud.close();
  }
}

/** The planned price of one plan of every burst pod at once, on an empty cluster. */
async function planWholeBurst(cloud: SimulatedCloud): Promise<number> {
  const api = createClusterApi(
    { kubeconfigPath: cloud.kubeconfigPath },
    { log: silentLog, clock: cloud.clock },
  );
  const snapshot = await readClusterSnapshot(api, silentLog);
  const all = [...(await api.listPendingPods()), ...(await api.listPodsOnNode())].filter(
    (p) => p.metadata.labels?.burst === 'true',
  );
  const pending: Pod[] = all.map((p) => ({
    ...p,
    spec: { ...p.spec, nodeName: undefined } as Pod['spec'],
    status: {
      phase: 'Pending',
      conditions: [{ type: 'PodScheduled', status: 'False', reason: 'Unschedulable' }],
    },
  }));
  const plan = planRun(
    { ...snapshot, pendingPods: pending, nodes: [], boundPods: [] },
    [],
    [],
    bundledCatalog,
  );
  return plan.plan.nodeClaims.reduce((sum, c) => sum + (c.instanceTypeOptions[0]?.price ?? 0), 0);
}

/** Prints a burst's numbers. */
export function printBurst(r: BurstResult): void {
  const l = r.unschedulableToCreateFleetMs;
  console.log(
    `\nburst of ${r.pods} pods over ${r.seconds} s, ${r.batching ? 'batch window 1 s idle / 10 s max' : 'no batch window (each SQS batch planned alone)'}:`,
  );
  console.log(
    `  provisioner invocations ${r.invocations}, runs that created nodeclaims ${r.runsCreating}; ` +
      `${r.nodeClaims} nodeclaims for ${r.podsOnClaims} pods in ${r.wallMs} ms`,
  );
  console.log(
    `  planned cost $${r.cost.toFixed(3)}/h vs one plan of the whole burst $${r.singlePlanCost.toFixed(3)}/h: ` +
      `ratio ${r.costRatio.toFixed(4)} (target <= ${BURST_TARGETS.costRatio})`,
  );
  console.log(
    `  the pods turned Unschedulable over ${r.unschedulableSpanMs} ms (a window closes 10 s after its first event)`,
  );
  console.log(`  unschedulable -> CreateFleet: p50 ${l.p50 ?? 'n/a'} ms, p99 ${l.p99 ?? 'n/a'} ms`);
}
