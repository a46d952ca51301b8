/**
 * Plays a scenario's steps against a running simulated cloud, one after the other, and reports
 * each step as a log line.
 */
import { durationToMs } from '../../core/model/config/duration.js';
import type { Node } from '../../core/model/kube-objects.js';
import type { SimulatedCloud } from '../cloud.js';
import { updateScale } from '../kube/api/scale.js';
import { applyManifests, deleteManifests } from './cluster-manifests.js';
import { playDeleteNode } from './delete-node-step.js';
import type { LoadedStep } from './load-scenario.js';
import type { CapacityReservationStep } from './reservation-schema.js';
import { reservationSpec } from './scenario-reservations.js';
import type {
  CallFault,
  IceFault,
  InterruptStep,
  LaunchFailureFault,
  MarketStep,
  NodeConditionStep,
  PatchStep,
} from './scenario-schema.js';
import { instanceIdOf } from './summary.js';
import { waitUntil, waitVirtual } from './waits.js';

/** What the player needs besides the cloud. */
export interface StepContext {
  readonly cloud: SimulatedCloud;
  /** Writes a scenario log line. */
  readonly say: (message: string) => void;
  /** Checks an `expect` step; returns the failures as lines. */
  readonly expect: (step: Extract<LoadedStep, { kind: 'expect' }>) => Promise<string[]>;
  /** Remembers the pods Running now under `name` (for `podsStayed`); returns how many. */
  readonly mark: (name: string) => number;
  /** Node objects of NodePools removed since the scenario started (for a wait `for: nodesRemoved`). */
  readonly nodesRemoved?: () => number;
}

/** What playing the steps produced: expectation failures of `expect` steps, and notes (timeouts). */
export interface PlayOutcome {
  readonly failures: string[];
  readonly notes: string[];
}

/** Plays every step in order. */
export async function playSteps(steps: readonly LoadedStep[], ctx: StepContext): Promise<PlayOutcome> {
  const outcome: PlayOutcome = { failures: [], notes: [] };
  for (const step of steps) {
    try {
      // Each step starts at a quiet instant of the simulation (VirtualClock.quiet): the same virtual
      // time and state on an idle or a busy host.
      const release = await ctx.cloud.clock.quiet();
      const played = playStep(step, ctx, outcome);
      release();
      await played;
    } catch (error) {
      throw new Error(`steps[${step.index}] (${step.kind}): ${(error as Error).message}`);
    }
  }
  return outcome;
}

async function playStep(step: LoadedStep, ctx: StepContext, outcome: PlayOutcome): Promise<void> {
  const { cloud } = ctx;
  const at = `step ${step.index}`;
  switch (step.kind) {
    case 'apply':
      ctx.say(`${at}: apply ${step.manifests.map((m) => `${m.kind}/${m.metadata.name}`).join(', ')}`);
      await applyManifests(cloud.kube.store, step.manifests);
      return;
    case 'delete':
      ctx.say(`${at}: delete ${step.manifests.map((m) => `${m.kind}/${m.metadata.name}`).join(', ')}`);
      await deleteManifests(cloud.kube.store, step.manifests);
      return;
    case 'patch':
      await playPatch(step.spec, at, ctx);
      return;
    case 'mark':
      ctx.say(`${at}: mark ${step.spec} (${ctx.mark(step.spec)} pods running)`);
      return;
    case 'scale': {
      const { deployment, nodePool, namespace, replicas } = step.spec;
      if (nodePool !== undefined) {
        await scaleNodePool(cloud, nodePool, replicas);
        ctx.say(`${at}: kubectl scale nodepool ${nodePool} --replicas=${replicas}`);
        return;
      }
      if (deployment === undefined) throw new Error('a scale step names a deployment or a nodePool');
      if (!cloud.kube.store.get('apps/v1', 'Deployment', deployment, namespace)) {
        throw new Error(`no Deployment ${namespace}/${deployment} to scale`);
      }
      ctx.say(`${at}: scale deployment ${namespace}/${deployment} to ${replicas}`);
      await cloud.kube.store.patch('apps/v1', 'Deployment', deployment, namespace, { spec: { replicas } });
      return;
    }
    case 'wait':
      await playWait(step.spec, at, ctx, outcome);
      return;
    case 'interrupt':
      playInterrupt(step.spec, at, ctx);
      return;
    case 'fault':
      playFault(step.spec, at, ctx);
      return;
    case 'market':
      playMarket(step.spec, at, ctx);
      return;
    case 'nodeCondition':
      await playNodeCondition(step.spec, at, ctx);
      return;
    case 'deleteNode':
      await playDeleteNode(step.spec, at, cloud, ctx.say, (node) =>
        targetInstance(cloud, { instance: node }),
      );
      return;
    case 'capacityReservation':
      playCapacityReservation(step.spec, at, ctx);
      return;
    case 'kmsKey':
      ctx.say(`${at}: KMS key ${step.spec.key} is now ${step.spec.state}`);
      cloud.ec2.setKmsKeyState(step.spec.key, step.spec.state);
      return;
    case 'expect': {
      const failures = await ctx.expect(step);
      ctx.say(`${at}: expectations ${failures.length === 0 ? 'hold' : `failed (${failures.length})`}`);
      outcome.failures.push(...failures);
      return;
    }
  }
}

async function playWait(
  spec: Extract<LoadedStep, { kind: 'wait' }>['spec'],
  at: string,
  ctx: StepContext,
  outcome: PlayOutcome,
): Promise<void> {
  if (typeof spec !== 'object') {
    ctx.say(`${at}: wait ${spec}`);
    await waitVirtual(ctx.cloud, durationToMs(spec) ?? 0);
    return;
  }
  const what =
    spec.for === 'nodes'
      ? `${spec.count} nodes`
      : spec.for === 'nodesRemoved'
        ? `${spec.count} nodes removed`
        : spec.for;
  ctx.say(`${at}: wait for ${what} (timeout ${spec.timeout})`);
  const held = await waitUntil(ctx.cloud, spec, durationToMs(spec.timeout) ?? 0, {
    nodesRemoved: ctx.nodesRemoved,
  });
  if (!held) {
    const found =
      spec.for === 'nodes'
        ? ` (${ctx.cloud.kube.store.list('v1', 'Node').length} nodes)`
        : spec.for === 'nodesRemoved'
          ? ` (${ctx.nodesRemoved?.() ?? 0} removed)`
          : '';
    const note = `${at}: ${what} not reached within ${spec.timeout} (virtual)${found}`;
    ctx.say(note);
    // A timed-out wait fails the scenario: what follows would check a cluster that never got there.
    if (spec.optional) outcome.notes.push(`${note} (optional wait)`);
    else outcome.failures.push(`${note}; mark the wait optional: true if that is acceptable`);
  }
}

/** Applies a JSON merge patch to one object (admission included, as `kubectl patch --type merge`). */
/** Sets a NodePool's replicas through its scale subresource, as `kubectl scale nodepool` does. */
async function scaleNodePool(cloud: SimulatedCloud, name: string, replicas: number): Promise<void> {
  const { api } = cloud.kube.store;
  const type = api.typeOf('karpenter.sh/v1', 'NodePool');
  if (!cloud.kube.store.get('karpenter.sh/v1', 'NodePool', name))
    throw new Error(`no NodePool ${name} to scale`);
  await updateScale(api, type, '', name, { patchType: 'merge', patch: { spec: { replicas } } });
}

async function playPatch(spec: PatchStep, at: string, ctx: StepContext): Promise<void> {
  const { store } = ctx.cloud.kube;
  let namespaced: boolean;
  try {
    namespaced = store.api.typeOf(spec.apiVersion, spec.kind).namespaced;
  } catch {
    throw new Error(`the cluster does not serve ${spec.kind} in ${spec.apiVersion}`);
  }
  const namespace = namespaced ? (spec.namespace ?? 'default') : undefined;
  const what = `${spec.kind} ${namespace ? `${namespace}/` : ''}${spec.name}`;
  if (!store.get(spec.apiVersion, spec.kind, spec.name, namespace)) throw new Error(`no ${what} to patch`);
  ctx.say(`${at}: patch ${what} ${JSON.stringify(spec.merge)}`);
  await store.patch(spec.apiVersion, spec.kind, spec.name, namespace, spec.merge);
}

/** Live instances joiner launched, oldest first. */
function joinerInstances(cloud: SimulatedCloud) {
  return [...cloud.ec2.state.instances.values()]
    .filter(
      (i) => i.tags['joiner.sh/cluster'] !== undefined && (i.state === 'pending' || i.state === 'running'),
    )
    .sort((a, b) => a.launchTime - b.launchTime || a.instanceId.localeCompare(b.instanceId));
}

/** One instance: an index among the live ones joiner launched (oldest first) or a node selector. */
function targetInstance(cloud: SimulatedCloud, spec: { instance: NodeConditionStep['node'] }): string {
  if (typeof spec.instance === 'number') {
    const live = joinerInstances(cloud);
    const found = live[spec.instance];
    if (!found) throw new Error(`instance ${spec.instance} does not exist (${live.length} live instance(s))`);
    return found.instanceId;
  }
  const selector = spec.instance.selector;
  const node = cloud.kube.store
    .list<Node>('v1', 'Node')
    .filter((n) => Object.entries(selector).every(([k, v]) => n.metadata.labels?.[k] === v))
    .sort((a, b) => a.metadata.name.localeCompare(b.metadata.name))[0];
  const id = node ? instanceIdOf(node) : undefined;
  if (!id) throw new Error(`no node with an instance matches the selector ${JSON.stringify(selector)}`);
  return id;
}

function playInterrupt(spec: InterruptStep, at: string, ctx: StepContext): void {
  const { instance } = spec;
  const ids =
    instance === 'all'
      ? joinerInstances(ctx.cloud).map((i) => i.instanceId)
      : [targetInstance(ctx.cloud, { instance })];
  if (ids.length === 0) throw new Error('no live instance to interrupt');
  ctx.say(`${at}: ${spec.kind} for ${ids.length === 1 ? `instance ${ids[0]}` : `${ids.length} instances`}`);
  for (const id of ids) {
    if (spec.kind === 'spot-interruption') ctx.cloud.ec2.interruptSpot(id);
    else if (spec.kind === 'rebalance') ctx.cloud.ec2.rebalanceRecommendation(id);
    else ctx.cloud.ec2.scheduledChange(id);
  }
}

/** Sets a condition on a node's status as its kubelet or node monitoring agent would (status subresource). */
async function playNodeCondition(spec: NodeConditionStep, at: string, ctx: StepContext): Promise<void> {
  const { store } = ctx.cloud.kube;
  const instanceId = targetInstance(ctx.cloud, { instance: spec.node });
  const node = store.list<Node>('v1', 'Node').find((n) => instanceIdOf(n) === instanceId);
  if (!node) throw new Error(`instance ${instanceId} has no node yet`);
  const now = new Date(ctx.cloud.clock.now()).toISOString();
  const previous = node.status?.conditions?.find((c) => c.type === spec.type);
  const condition = {
    type: spec.type,
    status: spec.status,
    reason: spec.reason ?? (spec.status === 'True' ? spec.type : `Not${spec.type}`),
    message: spec.message ?? '',
    lastHeartbeatTime: now,
    lastTransitionTime: previous?.status === spec.status ? (previous.lastTransitionTime ?? now) : now,
  };
  const conditions = [...(node.status?.conditions ?? []).filter((c) => c.type !== spec.type), condition];
  ctx.say(`${at}: node ${node.metadata.name} reports ${spec.type}=${spec.status}`);
  await store.patch('v1', 'Node', node.metadata.name, undefined, { status: { conditions } }, 'status');
}

function playFault(spec: IceFault | LaunchFailureFault | CallFault, at: string, ctx: StepContext): void {
  if ('launchFailure' in spec) {
    const { code, instanceType, zone, capacityType } = spec.launchFailure;
    const where =
      [capacityType, instanceType, zone && `in ${zone}`].filter(Boolean).join(' ') || 'every offering';
    ctx.say(`${at}: instances launched into ${where} are terminated during launch with ${code}`);
    ctx.cloud.ec2.failLaunches(spec.launchFailure);
    return;
  }
  if ('ice' in spec) {
    const { instanceType, zone, capacityType } = spec.ice;
    ctx.say(`${at}: no ${capacityType} capacity left for ${instanceType} in ${zone}`);
    ctx.cloud.ec2.setPoolCapacity(instanceType, zone, capacityType, 0);
    return;
  }
  ctx.say(`${at}: inject ${spec.error ?? 'latency'} on ${spec.service}/${spec.action}`);
  ctx.cloud.faults.inject(spec);
}

/** Changes the simulated market: a spot price, or an offering withdrawn / back. */
function playMarket(spec: MarketStep, at: string, ctx: StepContext): void {
  if ('spotPrice' in spec) {
    const { instanceType, zone, price } = spec.spotPrice;
    ctx.say(`${at}: spot price of ${instanceType} in ${zone} is now ${price}`);
    ctx.cloud.ec2.setSpotPrice(instanceType, zone, price);
    return;
  }
  const { instanceType, zone, capacityType, available } = spec.offering;
  ctx.say(
    `${at}: ${capacityType} ${instanceType} in ${zone} is ${available ? 'offered again' : 'no longer offered'}`,
  );
  ctx.cloud.ec2.setOffering(instanceType, zone, capacityType, available);
}

/** Adds a capacity reservation to the account, or changes one's instance count or end. */
function playCapacityReservation(spec: CapacityReservationStep, at: string, ctx: StepContext): void {
  const { ec2, clock } = ctx.cloud;
  if ('instanceType' in spec) {
    ctx.say(
      `${at}: capacity reservation ${spec.id} (${spec.type}, ${spec.count} x ${spec.instanceType} in ${spec.availabilityZone}) added`,
    );
    ec2.addCapacityReservations([reservationSpec(spec, clock.now())]);
    return;
  }
  const end = spec.endsAfter === undefined ? undefined : clock.now() + (durationToMs(spec.endsAfter) ?? 0);
  const what = [
    spec.count === undefined ? '' : `count ${spec.count}`,
    end === undefined ? '' : `ends ${new Date(end).toISOString()}`,
  ].filter((w) => w !== '');
  ctx.say(`${at}: capacity reservation ${spec.id} changed: ${what.join(', ')}`);
  ec2.modifyCapacityReservation(spec.id, {
    ...(spec.count === undefined ? {} : { count: spec.count }),
    ...(end === undefined ? {} : { endDate: end }),
  });
}
