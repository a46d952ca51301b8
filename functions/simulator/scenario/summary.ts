/**
 * The summary of a scenario run: workload pods, nodes with their instances and Multus ENIs,
 * hourly cost, latency percentiles, orphaned instances and disruptions, read from the simulated
 * cluster, the simulated EC2 and joiner's nodeclaims.
 */

import { TAG } from '../../core/launch/tags.js';
import type { Catalog } from '../../core/model/instance-type.js';
import type { Node, Pod } from '../../core/model/kube-objects.js';
import type { NodeClaim } from '../../core/nodeclaim/nodeclaim.js';
import type { SimulatedCloud } from '../cloud.js';
import type { Ec2Instance } from '../ec2/ec2-state.js';
import { efaDevices } from '../kube/kubelet/efa-devices.js';
import type { DisruptionRecorder } from './disruption-recorder.js';
import { type DisruptionSummary, disruptionSummary } from './disruption-summary.js';
import type { IamSummary } from './iam-denials.js';
import { type LatencyPhases, latencyPhases } from './latency-phases.js';
import type { LatencyRecorder, PodTimeline, Stamp } from './latency-recorder.js';
import { type Percentiles, stats } from './summary-stats.js';

/** One Multus ENI of a node. */
export interface MultusEniSummary {
  readonly networkInterfaceId: string;
  readonly deviceIndex: number;
  readonly subnetId: string;
  /** Name tag of the subnet. */
  readonly subnetName: string;
  readonly securityGroups: readonly string[];
  readonly deleteOnTermination: boolean;
  readonly noManage: boolean;
}

/** One node of the cluster at the end. */
export interface NodeSummary {
  readonly name: string;
  readonly instanceType: string;
  readonly zone: string;
  readonly capacityType: string;
  /** Workload pods bound to it. */
  readonly pods: number;
  readonly nodePool?: string;
  readonly instanceId?: string;
  /** The AMI the instance booted (id and name): shows which variant (standard, nvidia, neuron) it got. */
  readonly ami?: { readonly id: string; readonly name?: string };
  readonly maxPods?: number;
  readonly taints: readonly string[];
  /**
   * Hourly price joiner decided with: the price its nodeclaim was launched at (NodeOverlay-adjusted
   * when an overlay priced the offering), else the catalog's list price.
   */
  readonly hourlyPrice: number;
  /** The catalog's list price, when a NodeOverlay set {@link hourlyPrice}. */
  readonly listPrice?: number;
  /** True when a NodeOverlay set {@link hourlyPrice}. */
  readonly priceOverlaid?: boolean;
  readonly multusEnis: readonly MultusEniSummary[];
  /** EFA interfaces the instance was launched with (`efa` and `efa-only`); absent when none. */
  readonly efaInterfaces?: number;
}

export type { Percentiles } from './summary-stats.js';
export { stats } from './summary-stats.js';

/** What `joiner simulate -o json` prints (plus the expectation results). */
export interface ScenarioSummary extends DisruptionSummary {
  readonly scenario: string;
  readonly pods: { readonly total: number; readonly running: number; readonly pending: number };
  readonly nodes: readonly NodeSummary[];
  /** Sum of the nodes' {@link NodeSummary.hourlyPrice} (the prices joiner decided with). */
  readonly hourlyCost: number;
  /** Sum of the nodes' list prices, when a NodeOverlay priced any of them. */
  readonly listHourlyCost?: number;
  readonly latency: {
    readonly unit: 'virtual ms';
    readonly unschedulableToLaunchMs: Percentiles;
    readonly unschedulableToReadyMs: Percentiles;
    readonly unschedulableToRunningMs: Percentiles;
    /** Where the time goes (see latency-phases.ts). */
    readonly phases: LatencyPhases;
  };
  /** Wall milliseconds the clock spent with joiner computing, the simulator working, and waiting. */
  readonly wallSplitMs?: { readonly joiner: number; readonly simulator: number; readonly waiting: number };
  readonly orphanedInstances: number;
  readonly orphans: readonly string[];
  readonly virtualDurationMs: number;
  readonly wallDurationMs: number;
  /** What the account's IAM refused (and whether it was enforced at all). */
  readonly iam: IamSummary;
}

const LIVE_STATES = new Set(['pending', 'running']);

/** Instance id from a node's providerID (`aws:///us-west-2a/i-0abc`). */
export function instanceIdOf(node: Node): string | undefined {
  return /\/(i-[0-9a-f]+)$/.exec(node.spec?.providerID ?? '')?.[1];
}

const isDaemonPod = (pod: Pod): boolean =>
  (pod.metadata.ownerReferences ?? []).some((o) => o.kind === 'DaemonSet');

/** Workload (non-daemonset) pods of the cluster now: the stored objects, read-only. */
export function workloadPods(cloud: SimulatedCloud): readonly Pod[] {
  return cloud.kube.store.view<Pod>('v1', 'Pod').filter((p) => !isDaemonPod(p));
}

/** Builds the summary from the cloud's state, the recorder and the nodeclaims. */
export function buildSummary(input: {
  readonly name: string;
  readonly cloud: SimulatedCloud;
  readonly recorder: LatencyRecorder;
  readonly disruptions: DisruptionRecorder;
  readonly catalog: Catalog;
  readonly claims: readonly NodeClaim[];
  readonly started: Stamp;
  /** Virtual times the provisioner logged a closed batch window (see latency-phases.ts). */
  readonly batchesClosed?: readonly number[];
}): ScenarioSummary {
  const { cloud, recorder, catalog, claims } = input;
  const pods = workloadPods(cloud);
  const podsByNode = new Map<string, number>();
  for (const p of pods) {
    const node = p.spec?.nodeName;
    if (node) podsByNode.set(node, (podsByNode.get(node) ?? 0) + 1);
  }
  const launched = new Map(
    claims.filter((c) => c.instance?.instanceId).map((c) => [c.instance?.instanceId, c.instance]),
  );
  const nodes = cloud.kube.store
    .list<Node>('v1', 'Node')
    .map((n) => nodeSummary(cloud, catalog, n, podsByNode.get(n.metadata.name) ?? 0, launched));
  return {
    scenario: input.name,
    pods: {
      total: pods.length,
      running: pods.filter((p) => p.status?.phase === 'Running').length,
      pending: pods.filter((p) => (p.status?.phase ?? 'Pending') === 'Pending').length,
    },
    nodes,
    hourlyCost: round(
      nodes.reduce((sum, n) => sum + n.hourlyPrice, 0),
      4,
    ),
    ...(nodes.some((n) => n.priceOverlaid)
      ? {
          listHourlyCost: round(
            nodes.reduce((sum, n) => sum + (n.listPrice ?? n.hourlyPrice), 0),
            4,
          ),
        }
      : {}),
    latency: {
      ...latencies(recorder, claims),
      phases: latencyPhases(recorder, claims, cloud.runner.invocations(), input.batchesClosed),
    },
    wallSplitMs: {
      joiner: Math.round(cloud.clock.wallSplit.joiner),
      simulator: Math.round(cloud.clock.wallSplit.simulator),
      waiting: Math.round(cloud.clock.wallSplit.waiting),
    },
    ...orphans(cloud, claims),
    ...disruptionSummary(cloud, input.disruptions, input.started.virtual),
    virtualDurationMs: cloud.clock.now() - input.started.virtual,
    wallDurationMs: Date.now() - input.started.wall,
    iam: {
      enforced: input.cloud.account !== undefined,
      denied: [...(input.cloud.account?.denials() ?? [])],
      spotServiceLinkedRole:
        cloud.ec2.state.spotServiceLinkedRoleCreatedAt !== undefined
          ? 'created'
          : cloud.ec2.spotServiceLinkedRoleExists()
            ? 'present'
            : 'absent',
    },
  };
}

function nodeSummary(
  cloud: SimulatedCloud,
  catalog: Catalog,
  node: Node,
  pods: number,
  launched: ReadonlyMap<string | undefined, NodeClaim['instance']>,
): NodeSummary {
  const labels = node.metadata.labels ?? {};
  const instanceId = instanceIdOf(node);
  const instance = instanceId ? cloud.ec2.state.instances.get(instanceId) : undefined;
  const instanceType = labels['node.kubernetes.io/instance-type'] ?? instance?.instanceType ?? 'unknown';
  const zone = labels['topology.kubernetes.io/zone'] ?? instance?.availabilityZone ?? 'unknown';
  const capacityType = labels['karpenter.sh/capacity-type'] ?? instance?.capacityType ?? 'unknown';
  const offering = catalog.instanceTypes
    .find((t) => t.name === instanceType)
    ?.offerings.find((o) => o.zone === zone && o.capacityType === capacityType);
  const podCapacity = Number(node.status?.capacity?.pods);
  const decided = launched.get(instanceId);
  const listPrice = offering?.price ?? 0;
  const hourlyPrice = decided?.price ?? listPrice;
  return {
    name: node.metadata.name,
    instanceType,
    zone,
    capacityType,
    pods,
    nodePool: labels['karpenter.sh/nodepool'],
    instanceId,
    ...(instance ? { ami: { id: instance.imageId, name: instance.imageName } } : {}),
    maxPods: Number.isFinite(podCapacity) ? podCapacity : undefined,
    taints: (node.spec?.taints ?? []).map((t) => `${t.key}${t.value ? `=${t.value}` : ''}:${t.effect}`),
    hourlyPrice,
    ...(decided?.priceOverlaid ? { listPrice, priceOverlaid: true } : {}),
    multusEnis: instance ? multusEnis(cloud, instance) : [],
    ...(instance && efaDevices(instance.networkInterfaces) > 0
      ? { efaInterfaces: efaDevices(instance.networkInterfaces) }
      : {}),
  };
}

function multusEnis(cloud: SimulatedCloud, instance: Ec2Instance): MultusEniSummary[] {
  const { state } = cloud.ec2;
  return instance.networkInterfaces
    .filter((eni) => eni.deviceIndex > 0 && efaDevices([eni]) === 0)
    .sort((a, b) => a.deviceIndex - b.deviceIndex)
    .map((eni) => ({
      networkInterfaceId: eni.networkInterfaceId,
      deviceIndex: eni.deviceIndex,
      subnetId: eni.subnetId,
      subnetName: state.subnets.get(eni.subnetId)?.spec.tags.Name ?? eni.subnetId,
      securityGroups: eni.securityGroupIds.map((id) => state.securityGroups.get(id)?.groupName ?? id),
      deleteOnTermination: eni.deleteOnTermination,
      noManage: eni.tags[TAG.noManage] === 'true',
    }));
}

function latencies(
  recorder: LatencyRecorder,
  claims: readonly NodeClaim[],
): Omit<ScenarioSummary['latency'], 'phases'> {
  const { launch, ready, running } = latencySamples(recorder, claims);
  return {
    unit: 'virtual ms',
    unschedulableToLaunchMs: stats(launch),
    unschedulableToReadyMs: stats(ready),
    unschedulableToRunningMs: stats(running),
  };
}

/** Per pod that was unschedulable: virtual ms to its nodeclaim's launch, its node Ready, Running. */
export interface LatencySamples {
  readonly launch: number[];
  readonly ready: number[];
  readonly running: number[];
}

/** The samples behind the latency percentiles. */
export function latencySamples(recorder: LatencyRecorder, claims: readonly NodeClaim[]): LatencySamples {
  // A pod's launch is the first claim launched for it: a drain's replacement claim carries the
  // pods it moves too, long after they were first unschedulable.
  const claimInstance = new Map<string, string>();
  const byAge = [...claims].sort((a, b) => (a.timestamps.Pending ?? 0) - (b.timestamps.Pending ?? 0));
  for (const claim of byAge) {
    const id = claim.instance?.instanceId;
    if (!id) continue;
    for (const pod of claim.pods) if (!claimInstance.has(pod.uid)) claimInstance.set(pod.uid, id);
  }
  const nodeInstance = (node: string | undefined): string | undefined =>
    node === undefined ? undefined : recorder.nodeInstances.get(node);
  const launch: number[] = [];
  const ready: number[] = [];
  const running: number[] = [];
  const after = (from: Stamp, to: Stamp | undefined, into: number[]): void => {
    if (to && to.virtual >= from.virtual) into.push(to.virtual - from.virtual);
  };
  for (const pod of recorder.pods.values()) {
    const from = pod.unschedulable;
    if (!from) continue;
    const instanceId = claimInstance.get(pod.uid) ?? pod.instanceId ?? nodeInstance(pod.nodeName);
    after(from, instanceId ? recorder.instances.get(instanceId) : undefined, launch);
    after(from, readyOf(recorder, pod), ready);
    after(from, pod.running, running);
  }
  return { launch, ready, running };
}

function readyOf(recorder: LatencyRecorder, pod: PodTimeline): Stamp | undefined {
  return pod.nodeName ? recorder.nodes.get(pod.nodeName)?.ready : undefined;
}

function orphans(
  cloud: SimulatedCloud,
  claims: readonly NodeClaim[],
): { orphanedInstances: number; orphans: string[] } {
  const withNode = new Set(
    cloud.kube.store
      .list<Node>('v1', 'Node')
      .map(instanceIdOf)
      .filter((id) => id !== undefined),
  );
  const claimed = new Set(
    claims.filter((c) => c.state !== 'Gone' && c.instance).map((c) => c.instance?.instanceId),
  );
  const found = [...cloud.ec2.state.instances.values()]
    .filter((i) => LIVE_STATES.has(i.state) && i.tags[TAG.cluster] !== undefined)
    .filter((i) => !withNode.has(i.instanceId) && !claimed.has(i.instanceId))
    .map((i) => i.instanceId);
  return { orphanedInstances: found.length, orphans: found };
}

function round(value: number, digits: number): number {
  const f = 10 ** digits;
  return Math.round(value * f) / f;
}
