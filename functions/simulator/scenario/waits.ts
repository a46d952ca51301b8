/**
 * The conditions a `wait` step can wait for, checked against the simulated cluster and EC2 while
 * virtual time runs on its own.
 */
import { TAG } from '../../core/launch/tags.js';
import type { Node, Pod } from '../../core/model/kube-objects.js';
import type { SimulatedCloud } from '../cloud.js';
import type { WaitCondition, WaitConditionStep } from './scenario-schema.js';
import { instanceIdOf, workloadPods } from './summary.js';

interface Deployment {
  metadata: { name: string; namespace?: string; deletionTimestamp?: string };
  spec?: { replicas?: number; selector?: { matchLabels?: Record<string, string> } };
}

const isReady = (node: Node): boolean =>
  (node.status?.conditions ?? []).some((c) => c.type === 'Ready' && c.status === 'True');

/** Every Deployment has its replicas as pods, and every workload pod is Running. */
export function podsRunning(cloud: SimulatedCloud): boolean {
  const pods = workloadPods(cloud).filter((p) => !p.metadata.deletionTimestamp);
  if (pods.some((p) => p.status?.phase !== 'Running')) return false;
  for (const d of cloud.kube.store.view<Deployment>('apps/v1', 'Deployment')) {
    const labels = d.spec?.selector?.matchLabels ?? {};
    const matching = pods.filter(
      (p: Pod) =>
        p.metadata.namespace === (d.metadata.namespace ?? 'default') &&
        Object.entries(labels).every(([k, v]) => p.metadata.labels?.[k] === v),
    );
    if (matching.length < (d.spec?.replicas ?? 1)) return false;
  }
  return true;
}

/** Every node is Ready and every live instance joiner launched has a node. */
export function nodesReady(cloud: SimulatedCloud): boolean {
  const nodes = cloud.kube.store.view<Node>('v1', 'Node');
  if (!nodes.every(isReady)) return false;
  const withNode = new Set(nodes.map(instanceIdOf));
  return [...cloud.ec2.state.instances.values()]
    .filter((i) => i.tags[TAG.cluster] !== undefined && (i.state === 'pending' || i.state === 'running'))
    .every((i) => withNode.has(i.instanceId));
}

/** There are exactly `count` Node objects (whatever their state). */
export function nodeCount(cloud: SimulatedCloud, count: number): boolean {
  return cloud.kube.store.view<Node>('v1', 'Node').length === count;
}

/** What a wait waits for: a condition, and for `nodes` / `nodesRemoved` the number of Node objects. */
export type WaitTarget = Pick<WaitConditionStep, 'for' | 'count'>;

/** What a wait reads besides the cloud. */
export interface WaitSources {
  /**
   * Node objects of NodePools removed since the scenario started (the scenario's disruption
   * recorder); a wait `for: nodesRemoved` needs it.
   */
  readonly nodesRemoved?: () => number;
}

/**
 * `check` of the cluster alone, evaluated again only when the API server's resourceVersion has
 * moved (a wait polls every few milliseconds; with thousands of pods, a full pass per poll adds up).
 */
function perClusterVersion(check: (cloud: SimulatedCloud) => boolean): (cloud: SimulatedCloud) => boolean {
  let version: number | undefined;
  let result = false;
  return (cloud) => {
    const now = cloud.kube.store.api.store.currentVersion();
    if (now !== version) {
      result = check(cloud);
      version = now;
    }
    return result;
  };
}

/** The check of a wait target; `idle` is both `podsRunning` and `nodesReady`. */
export function conditionCheck(
  target: WaitTarget,
  sources: WaitSources = {},
): (cloud: SimulatedCloud) => boolean {
  const running = perClusterVersion(podsRunning);
  if (target.for === 'podsRunning') return running;
  if (target.for === 'nodesReady') return nodesReady;
  if (target.for === 'nodes') return perClusterVersion((cloud) => nodeCount(cloud, target.count ?? 0));
  if (target.for === 'nodesRemoved') {
    const removed = sources.nodesRemoved;
    if (!removed)
      throw new Error('a wait for nodesRemoved needs the count of removed nodes (run it in a scenario)');
    // As Karpenter's EventuallyExpectDeletedNodeCount("==", n): exactly that many.
    return () => removed() === (target.count ?? 0);
  }
  return (cloud) => running(cloud) && nodesReady(cloud);
}

/** How long a condition must hold before the wait ends (virtual ms), so a passing moment is not taken for a steady state. */
export const HOLD_MS: Record<WaitCondition, number> = {
  podsRunning: 2_000,
  nodesReady: 2_000,
  idle: 15_000,
  nodes: 5_000,
  // Removals only add up: the count reached is the outcome (Karpenter's Eventually returns then).
  nodesRemoved: 0,
};

/** Virtual ms between two checks of a wait's condition. */
export const CHECK_EVERY_MS = 250;

/**
 * Waits until `check` has held for the condition's hold time or `timeoutMs` of virtual time has
 * passed; resolves true when it held. The condition is checked on a grid of virtual time, each
 * time once the simulation is quiet (see VirtualClock.quiet), so the wait ends at the same virtual
 * time whatever the host's load.
 */
export async function waitUntil(
  cloud: SimulatedCloud,
  target: WaitTarget,
  timeoutMs: number,
  sources: WaitSources = {},
  everyMs = CHECK_EVERY_MS,
): Promise<boolean> {
  const check = conditionCheck(target, sources);
  let release = await cloud.clock.quiet();
  try {
    const deadline = cloud.clock.now() + timeoutMs;
    let since: number | undefined;
    for (;;) {
      const now = cloud.clock.now();
      if (check(cloud)) {
        since ??= now;
        if (now - since >= HOLD_MS[target.for]) return true;
      } else since = undefined;
      if (now >= deadline) return false;
      release();
      await cloud.clock.sleep(Math.min(everyMs, deadline - now));
      release = await cloud.clock.quiet();
    }
  } finally {
    release();
  }
}

/** Waits until `ms` of virtual time has passed (from the next quiet instant). */
export async function waitVirtual(cloud: SimulatedCloud, ms: number): Promise<void> {
  const release = await cloud.clock.quiet();
  const slept = cloud.clock.sleep(ms);
  release();
  await slept;
}
