/**
 * One chaos run: the simulated cloud with joiner's real handlers (chaos ports, triple delivery),
 * EC2 throttling, ICE on half of the offerings, Kubernetes API 5xx, DynamoDB throttling, a crash
 * at every launch and drain step, lost webhook calls, workloads behind PDBs and a spot storm; then
 * the invariants, counted.
 */

import { bundledCatalog } from '../../../functions/core/catalog/bundled.js';
import { TAG } from '../../../functions/core/launch/tags.js';
import { SeededRandom } from '../../../functions/simulator/clock.js';
import { type SimulatedCloud, startSimulatedCloud } from '../../../functions/simulator/cloud.js';
import { applyManifests } from '../../../functions/simulator/scenario/cluster-manifests.js';
import { DisruptionRecorder } from '../../../functions/simulator/scenario/disruption-recorder.js';
import { installJoinerHandlers } from '../../../functions/simulator/scenario/joiner-handlers.js';
import { LatencyRecorder } from '../../../functions/simulator/scenario/latency-recorder.js';
import { installManifests } from '../../../functions/simulator/scenario/run-scenario.js';
import { buildSummary } from '../../../functions/simulator/scenario/summary.js';
import { waitUntil, waitVirtual } from '../../../functions/simulator/scenario/waits.js';
import { SIMULATOR_CREDENTIALS } from '../../../functions/simulator/sqs/sqs-simulator.js';
import { installChaosHandlers } from './chaos-handlers.js';
import { type ChaosLedger, CRASH_POINTS } from './chaos-ports.js';
import { CPU_LIMIT, chaosNodePool, chaosWorkloads, INSTANCE_TYPES } from './chaos-workloads.js';
import { countInvariants, type Invariants } from './invariants.js';

/** Size and seed of a run. */
export interface ChaosOptions {
  readonly seed: number;
  /** Replicas of each of the three deployments. */
  readonly replicas: number;
  /** Virtual seconds per wall second. Default 10. */
  readonly speed?: number;
  /** Receives every log line. */
  readonly onLog?: (line: string) => void;
}

/** What a run counted. */
export interface ChaosReport {
  readonly seed: number;
  readonly pods: number;
  readonly invariants: Invariants;
  readonly faults: {
    readonly deliveries: number;
    readonly failedDeliveries: number;
    readonly crashes: number;
    readonly kube5xx: number;
    readonly dynamoThrottled: number;
    readonly conditionalFailures: number;
    readonly webhookDropped: number;
    readonly iceOfferings: number;
    readonly spotInterrupted: number;
  };
  readonly crashPointsMissed: readonly string[];
  readonly wallMs: number;
}

/** Runs one chaos run and counts its invariants. */
export async function runChaos(options: ChaosOptions): Promise<ChaosReport> {
  process.env.AWS_ACCESS_KEY_ID ??= SIMULATOR_CREDENTIALS.accessKeyId;
  process.env.AWS_SECRET_ACCESS_KEY ??= SIMULATOR_CREDENTIALS.secretAccessKey;
  const wallStart = Date.now();
  // Wall time scaled 1/10: a 6-minute visibility timeout lasts 36 s, the provisioner may run 6 s.
  const cloud = await startSimulatedCloud({
    seed: options.seed,
    autoAdvance: options.speed ?? 10,
    timeScale: 1 / 10,
  });
  const random = new SeededRandom(options.seed * 7919);
  const sink = options.onLog ?? (() => undefined);
  const now = () => cloud.clock.now();
  const latency = new LatencyRecorder(cloud.kube.store.api.store, cloud.ec2, now);
  const disruptions = new DisruptionRecorder(cloud.kube.store.api.store, now);
  const limits = sampleLimits(cloud);
  try {
    await installJoinerHandlers(cloud, sink);
    const chaos = installChaosHandlers(cloud, random, { dynamoThrottle: 0.01 }, sink, 0.1);
    countKubeFaults(cloud, chaos.ledger);
    await applyManifests(cloud.kube.store, [...installManifests(cloud), ...chaosNodePool()]);
    cloud.faults.inject({ service: 'ec2', action: '*', error: 'RequestLimitExceeded', probability: 0.2 });
    // 10% of joiner's calls to the API server answered 503 (the simulated API server's own
    // controllers and kubelets work in process and are not affected).
    cloud.faults.inject({
      service: 'kubernetes',
      action: '*',
      error: 'ServiceUnavailable',
      probability: 0.1,
    });
    cloud.faults.inject({
      service: 'ec2',
      action: 'CreateFleet',
      error: 'InternalError',
      message: 'chaos: the function crashed after the launch template',
      times: 1,
    });
    const iceOfferings = iceHalf(cloud, random);
    const started = { virtual: now(), wall: Date.now() };
    await applyManifests(cloud.kube.store, chaosWorkloads(options.replicas));
    await waitUntil(cloud, { for: 'podsRunning' }, 20 * 60_000);
    const spotInterrupted = await spotStorm(cloud, random);
    await waitVirtual(cloud, 150_000);
    await waitUntil(cloud, { for: 'podsRunning' }, 20 * 60_000);
    // The bad day ends: the sweeps collect what crashes left behind.
    cloud.faults.clear();
    chaos.calm();
    await waitVirtual(cloud, 4 * 60_000);
    await cloud.runner.idle();
    latency.scanInstances();
    const claims = await cloud.stateStore.listNodeClaims();
    const summary = buildSummary({
      name: `chaos-${options.seed}`,
      cloud,
      recorder: latency,
      disruptions,
      catalog: bundledCatalog,
      claims,
      started,
    });
    const invariants = countInvariants({ cloud, summary, latency, cycles: chaos.provisioningCycles, limits });
    const { ledger } = chaos;
    return {
      seed: options.seed,
      pods: summary.pods.total,
      invariants,
      faults: {
        deliveries: chaos.deliveries,
        failedDeliveries: chaos.failedDeliveries,
        crashes: ledger.crashes.size + (launchTemplateCrashFired(cloud) ? 1 : 0),
        kube5xx: ledger.kube5xx,
        dynamoThrottled: ledger.dynamoThrottled,
        conditionalFailures: ledger.conditionalFailures,
        webhookDropped: chaos.webhookDropped,
        iceOfferings,
        spotInterrupted,
      },
      crashPointsMissed: CRASH_POINTS.filter(
        (p) => p !== 'after the launch template' && !ledger.crashes.has(p),
      ),
      wallMs: Date.now() - wallStart,
    };
  } finally {
    limits.stop();
    latency.stop();
    disruptions.stop();
    await cloud.close();
  }
}

/**
 * Whether the one-shot CreateFleet failure (the crash after the launch template) was met: it is
 * consumed by the first CreateFleet the throttling lets through, so any instance means it was.
 */
function launchTemplateCrashFired(cloud: SimulatedCloud): boolean {
  return [...cloud.ec2.state.instances.values()].length > 0;
}

/** Counts the 5xx answers the simulated API server gives joiner. */
function countKubeFaults(cloud: SimulatedCloud, ledger: ChaosLedger): void {
  const check = cloud.faults.check.bind(cloud.faults);
  cloud.faults.check = (service, action) => {
    const fault = check(service, action);
    if (fault && service === 'kubernetes') ledger.kube5xx++;
    return fault;
  };
}

/** No capacity in half of the NodePool's offerings (seeded). */
function iceHalf(cloud: SimulatedCloud, random: SeededRandom): number {
  let count = 0;
  for (const type of bundledCatalog.instanceTypes.filter((t) => INSTANCE_TYPES.includes(t.name))) {
    for (const offering of type.offerings) {
      if (offering.capacityType === 'reserved' || random.next() >= 0.5) continue;
      cloud.ec2.setPoolCapacity(type.name, offering.zone, offering.capacityType, 0);
      count++;
    }
  }
  return count;
}

/** 30% of the spot instances joiner launched interrupted at seeded moments within two minutes. */
async function spotStorm(cloud: SimulatedCloud, random: SeededRandom): Promise<number> {
  const spot = [...cloud.ec2.state.instances.values()].filter(
    (i) => i.capacityType === 'spot' && i.state === 'running' && i.tags[TAG.cluster] !== undefined,
  );
  const chosen = spot.filter(() => random.next() < 0.3);
  if (chosen.length === 0 && spot.length > 0) chosen.push(spot[0] as (typeof spot)[number]);
  const at = chosen.map(() => Math.floor(random.next() * 120_000)).sort((a, b) => a - b);
  let elapsed = 0;
  for (const [i, instance] of chosen.entries()) {
    const wait = (at[i] ?? 0) - elapsed;
    if (wait > 0) await waitVirtual(cloud, wait);
    elapsed += Math.max(0, wait);
    if (instance.state === 'running') cloud.ec2.interruptSpot(instance.instanceId);
  }
  return chosen.length;
}

/** Samples, every 20 wall ms, the vCPUs of live instances against the NodePool's CPU limit. */
function sampleLimits(cloud: SimulatedCloud) {
  const vcpu = new Map(bundledCatalog.instanceTypes.map((t) => [t.name, t.vcpu]));
  const state = { violations: 0, maxCpu: 0, stop: () => clearInterval(timer) };
  let over = false;
  const timer = setInterval(() => {
    let cpu = 0;
    for (const i of cloud.ec2.state.instances.values()) {
      if (i.tags[TAG.cluster] === undefined) continue;
      if (i.state === 'pending' || i.state === 'running') cpu += vcpu.get(i.instanceType) ?? 0;
    }
    state.maxCpu = Math.max(state.maxCpu, cpu);
    if (cpu > CPU_LIMIT && !over) state.violations++;
    over = cpu > CPU_LIMIT;
  }, 20);
  return state;
}

export type LimitSampler = ReturnType<typeof sampleLimits>;
