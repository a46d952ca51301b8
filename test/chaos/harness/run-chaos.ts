/**
 * One chaos run: the simulated cloud with joiner's real handlers (chaos ports, triple delivery),
 * EC2 throttling, ICE on half of the offerings, Kubernetes API 5xx, DynamoDB throttling, a crash
 * at every launch and drain step, lost webhook calls, workloads behind PDBs and a spot storm; then
 * the invariants, counted.
 */

import { DeleteItemCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { bundledCatalog } from '../../../functions/core/catalog/bundled.js';
import { TAG } from '../../../functions/core/launch/tags.js';
import { SeededRandom } from '../../../functions/simulator/clock.js';
import { type SimulatedCloud, startSimulatedCloud } from '../../../functions/simulator/cloud.js';
import type { DeniedCall } from '../../../functions/simulator/iam/authorization/account-identity.js';
import { applyManifests } from '../../../functions/simulator/scenario/cluster-manifests.js';
import { DisruptionRecorder } from '../../../functions/simulator/scenario/disruption-recorder.js';
import { installJoinerHandlers } from '../../../functions/simulator/scenario/joiner-handlers.js';
import { LatencyRecorder } from '../../../functions/simulator/scenario/latency-recorder.js';
import { installManifests } from '../../../functions/simulator/scenario/run-scenario.js';
import { buildSummary } from '../../../functions/simulator/scenario/summary.js';
import { waitUntil, waitVirtual } from '../../../functions/simulator/scenario/waits.js';
import { SIMULATOR_CREDENTIALS } from '../../../functions/simulator/sqs/sqs-simulator.js';
import { deployedAccount } from '../../../functions/simulator/stack/deployed-account.js';
import { type Attribution, attribute } from './attribution.js';
import { installChaosHandlers } from './chaos-handlers.js';
import { type ChaosLedger, CRASH_POINTS } from './chaos-ports.js';
import { CPU_LIMIT, chaosNodePool, chaosWorkloads, INSTANCE_TYPES } from './chaos-workloads.js';
import { DrainedInstances } from './drained-instances.js';
import { countInvariants, type Invariants, type LatePod } from './invariants.js';

/**
 * The replicas per deployment the harness supports: at 10 the three deployments request 35 vCPUs,
 * which with the spot storm's replacements and the half of the offerings out of capacity stays
 * inside the NodePool's 96-vCPU limit; beyond it pods would wait on the limit by design and count
 * as late. The sweep in the README covers 4-10.
 */
export const REPLICAS_RANGE = { min: 1, max: 10 } as const;

const CLUSTER_NAME = 'joiner-sim';
/** How long EC2's Describe* may miss what was just created or tagged (virtual ms). */
export const EVENTUAL_CONSISTENCY_MS = 5_000;

/** Size and seed of a run. */
export interface ChaosOptions {
  readonly seed: number;
  /** Replicas of each of the three deployments ({@link REPLICAS_RANGE}). */
  readonly replicas: number;
  /**
   * Share of the Initialized nodeclaim records deleted from the table (at least one) at seeded
   * moments before the spot storm: lost state, which the sweep must recover without killing a
   * pod. Default 0.3; 0 deletes none.
   */
  readonly claimLoss?: number;
  /**
   * Virtual seconds per wall second while everything waits on timers. Default Infinity (the clock
   * jumps to the next timer): what a run decides does not depend on it (joiner's own compute is
   * counted 1:1 on the virtual clock whatever the speed), only its wall time does.
   */
  readonly speed?: number;
  /** Receives every log line. */
  readonly onLog?: (line: string) => void;
}

/** What a run counted. */
export interface ChaosReport {
  readonly seed: number;
  readonly replicas: number;
  readonly pods: number;
  readonly invariants: Invariants;
  /** Every PDB violation and lost pod traced to its cause (attribution.ts). */
  readonly attribution: Attribution;
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
    /** Nodeclaim records deleted from the table (lost state). */
    readonly claimRecordsDeleted: number;
  };
  readonly crashPointsMissed: readonly string[];
  /** AWS calls the account's IAM refused (must be none): action, resource, role, count. */
  readonly iamDenied: readonly DeniedCall[];
  readonly wallMs: number;
}

/** Runs one chaos run and counts its invariants. */
export async function runChaos(options: ChaosOptions): Promise<ChaosReport> {
  checkReplicas(options.replicas);
  process.env.AWS_ACCESS_KEY_ID ??= SIMULATOR_CREDENTIALS.accessKeyId;
  process.env.AWS_SECRET_ACCESS_KEY ??= SIMULATOR_CREDENTIALS.secretAccessKey;
  const wallStart = Date.now();
  let virtualNow = (): number => Date.now();
  // The account of the deployed stack: every AWS call is authorized as the calling function's role.
  const account = await deployedAccount({
    clusterName: CLUSTER_NAME,
    region: bundledCatalog.region,
    clock: () => virtualNow(),
  });
  // Wall time scaled 1/10: a 6-minute visibility timeout lasts 36 s, the provisioner may run 6 s.
  const cloud = await startSimulatedCloud({
    seed: options.seed,
    clusterName: CLUSTER_NAME,
    // The clock follows wall time while joiner is installed (setup is no part of the run, but its
    // function timeouts are virtual), then runs at the run's speed.
    autoAdvance: 1,
    timeScale: 1 / 10,
    account,
    // EC2 is eventually consistent: a just-created instance, launch template or tag may be missing
    // from Describe* for up to this long (issue 26 item 4), as in a real region.
    eventualConsistency: { windowMs: EVENTUAL_CONSISTENCY_MS },
  });
  virtualNow = () => cloud.clock.now();
  const random = new SeededRandom(options.seed * 7919);
  const sink = options.onLog ?? (() => undefined);
  const now = () => cloud.clock.now();
  const latency = new LatencyRecorder(cloud.kube.store.api.store, cloud.ec2, now);
  const disruptions = new DisruptionRecorder(cloud.kube.store.api.store, now);
  const drained = new DrainedInstances(cloud.kube.store.api.store);
  const limits = sampleLimits(cloud);
  try {
    await installJoinerHandlers(cloud, sink);
    const chaos = installChaosHandlers(cloud, random, { dynamoThrottle: 0.01 }, sink, 0.1);
    countKubeFaults(cloud, chaos.ledger);
    await applyManifests(cloud.kube.store, [...installManifests(cloud), ...chaosNodePool()]);
    cloud.clock.startAuto(options.speed ?? Number.POSITIVE_INFINITY);
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
    const claimRecordsDeleted = await loseClaims(cloud, random, options.claimLoss ?? 0.3);
    const reclaimed = await spotStorm(cloud, random);
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
    const latePods: LatePod[] = [];
    const invariants = countInvariants({
      cloud,
      summary,
      latency,
      cycles: chaos.provisioningCycles,
      limits,
      latePods,
    });
    const attribution = attribute(
      summary,
      latency,
      reclaimed,
      latePods,
      started.virtual,
      drained.instances(),
    );
    const { ledger } = chaos;
    return {
      seed: options.seed,
      replicas: options.replicas,
      pods: summary.pods.total,
      invariants,
      attribution,
      faults: {
        deliveries: chaos.deliveries,
        failedDeliveries: chaos.failedDeliveries,
        crashes: ledger.crashes.size + (launchTemplateCrashFired(cloud) ? 1 : 0),
        kube5xx: ledger.kube5xx,
        dynamoThrottled: ledger.dynamoThrottled,
        conditionalFailures: ledger.conditionalFailures,
        webhookDropped: chaos.webhookDropped,
        iceOfferings,
        spotInterrupted: reclaimed.size,
        claimRecordsDeleted,
      },
      crashPointsMissed: CRASH_POINTS.filter(
        (p) => p !== 'after the launch template' && !ledger.crashes.has(p),
      ),
      iamDenied: summary.iam.denied,
      wallMs: Date.now() - wallStart,
    };
  } finally {
    limits.stop();
    latency.stop();
    disruptions.stop();
    drained.stop();
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

/** Throws unless `replicas` is an integer within {@link REPLICAS_RANGE}. */
export function checkReplicas(replicas: number): void {
  if (!Number.isInteger(replicas) || replicas < REPLICAS_RANGE.min || replicas > REPLICAS_RANGE.max)
    throw new Error(
      `chaos: --replicas must be an integer from ${REPLICAS_RANGE.min} to ${REPLICAS_RANGE.max} (the harness's NodePool limit holds 10 replicas of each deployment with room for the storm's replacements), got ${replicas}`,
    );
}

/**
 * Deletes `share` of the Initialized nodeclaim records (at least one) from the state table at
 * seeded moments within two minutes, as a restore or an operator's mistake would; returns how
 * many. Their instances and nodes run on: the sweep must adopt them, never kill their pods.
 */
async function loseClaims(cloud: SimulatedCloud, random: SeededRandom, share: number): Promise<number> {
  if (share <= 0) return 0;
  const running = (await cloud.stateStore.listNodeClaims(['Initialized'])).map((c) => c.id).sort();
  const chosen = running.filter(() => random.next() < share);
  if (chosen.length === 0 && running.length > 0) chosen.push(running[0] as string);
  const at = chosen.map(() => Math.floor(random.next() * 120_000)).sort((a, b) => a - b);
  const dynamo = new DynamoDBClient({
    region: cloud.region,
    endpoint: cloud.endpoints.dynamodb,
    credentials: SIMULATOR_CREDENTIALS,
  });
  let elapsed = 0;
  try {
    for (const [i, id] of chosen.entries()) {
      const wait = (at[i] ?? 0) - elapsed;
      if (wait > 0) await waitVirtual(cloud, wait);
      elapsed += Math.max(0, wait);
      await dynamo.send(
        new DeleteItemCommand({ TableName: cloud.tableName, Key: { pk: { S: 'nodeclaim' }, sk: { S: id } } }),
      );
    }
  } finally {
    dynamo.destroy();
  }
  return chosen.length;
}

/**
 * 30% of the spot instances joiner launched interrupted at seeded moments within two minutes;
 * returns the instances interrupted, with when.
 */
async function spotStorm(cloud: SimulatedCloud, random: SeededRandom): Promise<Map<string, number>> {
  const spot = [...cloud.ec2.state.instances.values()].filter(
    (i) => i.capacityType === 'spot' && i.state === 'running' && i.tags[TAG.cluster] !== undefined,
  );
  const chosen = spot.filter(() => random.next() < 0.3);
  if (chosen.length === 0 && spot.length > 0) chosen.push(spot[0] as (typeof spot)[number]);
  const at = chosen.map(() => Math.floor(random.next() * 120_000)).sort((a, b) => a - b);
  let elapsed = 0;
  const interrupted = new Map<string, number>();
  for (const [i, instance] of chosen.entries()) {
    const wait = (at[i] ?? 0) - elapsed;
    if (wait > 0) await waitVirtual(cloud, wait);
    elapsed += Math.max(0, wait);
    if (instance.state !== 'running') continue;
    cloud.ec2.interruptSpot(instance.instanceId);
    interrupted.set(instance.instanceId, cloud.clock.now());
  }
  return interrupted;
}

/**
 * Samples, every 200 virtual ms, the vCPUs of live instances against the NodePool's CPU limit (on
 * the virtual clock, so the resolution is the same at any speed and on any host load).
 */
function sampleLimits(cloud: SimulatedCloud) {
  const vcpu = new Map(bundledCatalog.instanceTypes.map((t) => [t.name, t.vcpu]));
  let handle: number | undefined;
  const state = {
    violations: 0,
    maxCpu: 0,
    stop: () => {
      if (handle !== undefined) cloud.clock.clearTimeout(handle);
      handle = undefined;
    },
  };
  let over = false;
  const sample = () => {
    let cpu = 0;
    for (const i of cloud.ec2.state.instances.values()) {
      if (i.tags[TAG.cluster] === undefined) continue;
      if (i.state === 'pending' || i.state === 'running') cpu += vcpu.get(i.instanceType) ?? 0;
    }
    state.maxCpu = Math.max(state.maxCpu, cpu);
    if (cpu > CPU_LIMIT && !over) state.violations++;
    over = cpu > CPU_LIMIT;
    handle = cloud.clock.setTimeout(sample, LIMIT_SAMPLE_MS);
  };
  sample();
  return state;
}

const LIMIT_SAMPLE_MS = 200;

export type LimitSampler = ReturnType<typeof sampleLimits>;
