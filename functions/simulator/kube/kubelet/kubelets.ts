/**
 * Simulated kubelets, one per running instance of the simulated EC2: they register the Node (named
 * by the private DNS name, labels / taints / max-pods from the user data, capacity from the
 * catalog), report Ready, start the pods bound to their node, finish graceful pod deletions, and
 * when the instance terminates let the node go NotReady and be removed.
 */
import type { Catalog } from '../../../core/model/instance-type.js';
import type { Node, Pod } from '../../../core/model/kube-objects.js';
import type { SeededRandom, VirtualClock } from '../../clock.js';
import type { InstanceObserver, SimInstance } from '../../instance.js';
import { ApiError } from '../api/api-error.js';
import type { KubeApi } from '../api/kube-api.js';
import type { KubeObject, StoreEvent } from '../api/object-store.js';
import { markPodsNotReady } from '../controllers/node-lifecycle.js';
import type { TaskRunner } from '../task-runner.js';
import { draw, type KubeTimings } from '../timings.js';
import { buildNode, NOT_READY_TAINT } from './node-object.js';
import { isMultusPod, runningStatus } from './pod-status.js';
import { parseUserData } from './user-data.js';

const KUBELET_USER = 'system:node';
/** The kubelet's registration retry while its node name is taken (its backoff tops out at 7 s). */
const REGISTRATION_RETRY = { delayMs: 7_000, jitterMs: 0 } as const;
/** Registration attempts before the kubelet gives up (about 10 minutes). */
const REGISTRATION_ATTEMPTS = 90;

/** The kubelets of all simulated instances. */
export class Kubelets implements InstanceObserver {
  private readonly instances = new Map<string, SimInstance>();
  private readonly starting = new Set<string>();
  private readonly terminating = new Set<string>();
  private podIpCounter = 10;
  /** Instances whose user data could not be read (they never join), with the reason. */
  readonly failures: { instanceId: string; reason: string }[] = [];

  constructor(
    private readonly api: KubeApi,
    private readonly clock: VirtualClock,
    private readonly random: SeededRandom,
    private readonly catalog: Catalog,
    private readonly region: string,
    private readonly timings: KubeTimings,
    private readonly tasks: TaskRunner,
  ) {
    api.gracefulPodDeletion = (pod) => this.finishDeletion(pod as unknown as Pod);
    api.store.subscribe((e) => this.onEvent(e));
  }

  instanceRunning(instance: SimInstance): void {
    if (this.instances.has(instance.instanceId)) return;
    this.instances.set(instance.instanceId, instance);
    this.after(this.timings.nodeRegistered, `register ${instance.instanceId}`, () => this.register(instance));
  }

  instanceTerminated(instance: SimInstance): void {
    const known = this.instances.get(instance.instanceId);
    if (!known) return;
    this.instances.delete(instance.instanceId);
    const name = instance.privateDnsName;
    // The Node of this instance only: its name (the private DNS name) may have been taken by a
    // later instance's Node by then, as EC2 reuses released addresses.
    const own = (): Node | undefined => {
      const node = this.node(name);
      return node?.spec?.providerID?.endsWith(`/${instance.instanceId}`) ? node : undefined;
    };
    this.after(this.timings.nodeNotReady, `node ${name} NotReady`, async () => {
      const node = own();
      if (!node) return;
      const conditions = (node.status?.conditions ?? []).filter((c) => c.type !== 'Ready');
      conditions.push({
        type: 'Ready',
        status: 'Unknown',
        reason: 'NodeStatusUnknown',
        message: 'Kubelet stopped posting node status.',
      });
      const status = { ...node.status, conditions };
      const written = await ifPresent(() =>
        this.api.replace(
          this.nodeType(),
          undefined,
          name,
          { ...(node as unknown as KubeObject), status },
          'status',
          { user: KUBELET_USER },
        ),
      );
      if (!written) return;
      await markPodsNotReady(this.api, name);
      this.after(this.timings.nodeRemoved, `remove node ${name}`, async () => {
        const node = own();
        if (node)
          await ifPresent(() =>
            this.api.delete(this.nodeType(), undefined, name, {
              user: 'system:serviceaccount:kube-system:node-controller',
              preconditions: { uid: node.metadata.uid },
            }),
          );
      });
    });
  }

  private async register(instance: SimInstance, attempt = 1): Promise<void> {
    if (!this.instances.has(instance.instanceId)) return;
    const type = this.catalog.instanceTypes.find((t) => t.name === instance.instanceType);
    let node: KubeObject;
    try {
      if (!type) throw new Error(`instance type ${instance.instanceType} is not in the catalog`);
      node = buildNode(instance, type, parseUserData(instance.userData), this.region, this.clock.now());
    } catch (err) {
      this.failures.push({ instanceId: instance.instanceId, reason: (err as Error).message });
      return;
    }
    const taken = this.node(node.metadata.name);
    if (taken) {
      // The name (the private DNS name) is still held by the Node of an instance that had the
      // address before; the node controller removes it soon. The kubelet retries registration.
      if (attempt >= REGISTRATION_ATTEMPTS) {
        this.failures.push({
          instanceId: instance.instanceId,
          reason: `node ${node.metadata.name} is held by ${taken.spec?.providerID ?? 'another node'}`,
        });
        return;
      }
      this.after(REGISTRATION_RETRY, `register ${instance.instanceId} again`, () =>
        this.register(instance, attempt + 1),
      );
      return;
    }
    await this.api.create(this.nodeType(), undefined, node, { user: KUBELET_USER });
    this.after(this.timings.nodeReady, `node ${node.metadata.name} Ready`, async () => {
      await ifPresent(() => this.markReady(node.metadata.name));
    });
  }

  private async markReady(name: string): Promise<void> {
    const node = this.node(name);
    if (!node || node.metadata.deletionTimestamp) return;
    const conditions = (node.status?.conditions ?? []).filter((c) => c.type !== 'Ready');
    conditions.push({
      type: 'Ready',
      status: 'True',
      reason: 'KubeletReady',
      message: 'kubelet is posting ready status',
    });
    const updated = await this.api.replace(
      this.nodeType(),
      undefined,
      name,
      { ...(node as unknown as KubeObject), status: { ...node.status, conditions } },
      'status',
      { user: KUBELET_USER },
    );
    const taints = ((updated.spec as Node['spec'])?.taints ?? []).filter(
      (t) => t.key !== NOT_READY_TAINT.key,
    );
    await this.api.replace(
      this.nodeType(),
      undefined,
      name,
      { ...updated, spec: { ...(updated.spec as object), taints } },
      '',
      { user: 'system:serviceaccount:kube-system:node-controller' },
    );
    for (const pod of this.api.view(this.podType(), { fieldSelector: `spec.nodeName=${name}` }))
      this.maybeStart(pod as unknown as Pod);
  }

  private onEvent(e: StoreEvent): void {
    if (e.resource !== '/pods' || e.type === 'DELETED') return;
    this.maybeStart(e.object as unknown as Pod);
  }

  private maybeStart(pod: Pod): void {
    const uid = pod.metadata.uid ?? '';
    if (
      !pod.spec.nodeName ||
      pod.status?.phase !== 'Pending' ||
      pod.metadata.deletionTimestamp ||
      this.starting.has(uid)
    )
      return;
    const node = this.node(pod.spec.nodeName);
    if (!node || !isReady(node)) return;
    this.starting.add(uid);
    const key = { ns: pod.metadata.namespace ?? 'default', name: pod.metadata.name };
    const multus = isMultusPod(pod);
    this.after(this.timings.podRunning, `start pod ${key.ns}/${key.name}`, async () => {
      await ifPresent(() => this.writePodStatus(key, uid, !multus));
      if (multus)
        this.after(this.timings.multusReady, `multus ready ${key.name}`, async () => {
          await ifPresent(() => this.writePodStatus(key, uid, true));
        });
    });
  }

  private async writePodStatus(
    key: { ns: string; name: string },
    uid: string,
    ready: boolean,
  ): Promise<void> {
    const pod = this.api.find(this.podType(), key.ns, key.name) as unknown as Pod | undefined;
    if (!pod || pod.metadata.uid !== uid || pod.metadata.deletionTimestamp) return;
    const node = this.node(pod.spec.nodeName ?? '');
    const hostIP = String(
      (node?.status?.addresses as { type: string; address: string }[] | undefined)?.find(
        (a) => a.type === 'InternalIP',
      )?.address ?? '10.0.0.1',
    );
    const podIP =
      (pod.status?.podIP as string | undefined) ??
      `10.1.${Math.floor(this.podIpCounter / 250)}.${(this.podIpCounter++ % 250) + 2}`;
    const status = runningStatus(pod, this.clock.now(), { hostIP, podIP }, ready);
    await this.api.replace(
      this.podType(),
      key.ns,
      key.name,
      { ...(pod as unknown as KubeObject), status },
      'status',
      { user: KUBELET_USER },
    );
  }

  /** A pod got a deletionTimestamp: stop it after its grace period (capped by the timing); false = remove now. */
  private finishDeletion(pod: Pod): boolean {
    const node = pod.spec.nodeName ? this.node(pod.spec.nodeName) : undefined;
    if (!node || !isReady(node)) return false;
    const uid = pod.metadata.uid ?? '';
    if (this.terminating.has(uid)) return true;
    this.terminating.add(uid);
    const grace =
      Number((pod.metadata as { deletionGracePeriodSeconds?: number }).deletionGracePeriodSeconds ?? 30) *
      1000;
    const delay = Math.min(grace, draw(this.timings.podTerminated, this.random));
    this.clock.setTimeout(() => {
      void this.tasks.run(`remove pod ${pod.metadata.name}`, async () => {
        this.terminating.delete(uid);
        const current = this.api.find(this.podType(), pod.metadata.namespace, pod.metadata.name);
        if (current && current.metadata.uid === uid && (current.metadata.finalizers?.length ?? 0) === 0)
          this.api.remove(this.podType(), current);
      });
    }, delay);
    return true;
  }

  private after(stage: KubeTimings['nodeReady'], name: string, fn: () => Promise<void>): void {
    this.clock.setTimeout(() => void this.tasks.run(name, fn), draw(stage, this.random));
  }

  /**
   * The stored Node itself, not a copy: the kubelets only read it (their writes go through the
   * API's verbs, which copy), and a copy per pod change of a large cluster is the kubelets' main cost.
   */
  private node(name: string): Node | undefined {
    return this.api.peek(this.nodeType(), undefined, name) as unknown as Node | undefined;
  }

  private nodeType() {
    return this.api.typeOf('v1', 'Node');
  }

  private podType() {
    return this.api.typeOf('v1', 'Pod');
  }
}

/** Runs a write of an object someone else may delete meanwhile (joiner deletes Nodes): a 404 is undefined. */
async function ifPresent<T>(write: () => Promise<T>): Promise<T | undefined> {
  try {
    return await write();
  } catch (error) {
    if (error instanceof ApiError && error.code === 404) return undefined;
    throw error;
  }
}

function isReady(node: Node): boolean {
  return (node.status?.conditions ?? []).some((c) => c.type === 'Ready' && c.status === 'True');
}
