/**
 * What the simulated API server sees of disruptions, whoever causes them: PodDisruptionBudget
 * violations (a selected pod stopped being healthy through a delete, an eviction or its node
 * vanishing, and the budget then has fewer healthy pods than it desires) and workload pods lost
 * (Running when their node or instance vanished, without an eviction or a delete first).
 */
import type { Pod, PodDisruptionBudget } from '../../core/model/kube-objects.js';
import type { VirtualClock } from '../clock.js';
import type { PodChangeCause } from './api/change-cause.js';
import { controllerScales } from './api/controller-scale.js';
import { budgetStatus, isHealthyPod } from './api/disruption-budget.js';
import type { KubeApi } from './api/kube-api.js';
import { matchesLabelSelector } from './api/label-selector.js';
import { timestamp } from './api/object-defaults.js';
import type { KubeObject, StoreEvent } from './api/object-store.js';

/** How a pod stopped being healthy. */
export type ViolationCause = Exclude<PodChangeCause, 'owner'>;

/** A budget left below its desired healthy pods by the loss of one pod. */
export interface PdbViolation {
  /** `namespace/name` of the PodDisruptionBudget. */
  readonly pdb: string;
  /** `namespace/name` of the pod. */
  readonly pod: string;
  /** Virtual epoch ms. */
  readonly at: number;
  readonly how: ViolationCause;
  /** Healthy pods of the budget after the loss, and how many it desires. */
  readonly currentHealthy: number;
  readonly desiredHealthy: number;
}

/** A workload pod killed by its node or instance vanishing. */
export interface LostPod {
  /** `namespace/name`. */
  readonly pod: string;
  readonly node: string;
  /** Virtual epoch ms. */
  readonly at: number;
}

const MIRROR_ANNOTATION = 'kubernetes.io/config.mirror';

/** Whether the pod is a workload pod: neither a DaemonSet's nor the mirror of a static pod. */
export function isWorkloadPod(pod: Pod): boolean {
  if (pod.metadata.annotations?.[MIRROR_ANNOTATION] !== undefined) return false;
  return !(pod.metadata.ownerReferences ?? []).some((o) => o.kind === 'DaemonSet' || o.kind === 'Node');
}

const key = (o: { metadata: { namespace?: string; name: string } }): string =>
  `${o.metadata.namespace ?? 'default'}/${o.metadata.name}`;

/** Records violations and lost pods from the API server's storage changes; `stop()` ends it. */
export class DisruptionLedger {
  readonly violations: PdbViolation[] = [];
  readonly lost: LostPod[] = [];
  private readonly lostUids = new Set<string>();
  private readonly unsubscribe: () => void;

  constructor(
    private readonly api: KubeApi,
    private readonly clock: VirtualClock,
  ) {
    this.unsubscribe = api.store.subscribe((event) => this.onEvent(event));
  }

  stop(): void {
    this.unsubscribe();
  }

  private onEvent(event: StoreEvent): void {
    const cause = this.api.changeCause;
    const old = event.oldObject;
    if (event.resource !== '/pods' || !old || cause === undefined || cause === 'owner') return;
    const gone = event.type === 'DELETED';
    if (cause === 'node-gone') this.noteLost(old as unknown as Pod);
    if (!isHealthyPod(old) || (!gone && isHealthyPod(event.object))) return;
    this.checkBudgets(old, gone, cause);
  }

  /** A pod still Running (not terminating) when its node went away is lost, once. */
  private noteLost(pod: Pod): void {
    const uid = pod.metadata.uid ?? key(pod);
    if (this.lostUids.has(uid) || pod.metadata.deletionTimestamp || pod.status?.phase !== 'Running') return;
    if (!isWorkloadPod(pod)) return;
    this.lostUids.add(uid);
    this.lost.push({ pod: key(pod), node: pod.spec.nodeName ?? '', at: this.clock.now() });
  }

  /**
   * Every budget selecting the pod, computed on the pods now, the pod counted as expected but
   * unhealthy even when it is already gone (as the disruption controller counts the replicas its
   * controller wants, not only the pods left).
   */
  private checkBudgets(pod: KubeObject, gone: boolean, how: ViolationCause): void {
    const namespace = pod.metadata.namespace;
    const pdbType = this.api.typeOf('policy/v1', 'PodDisruptionBudget');
    const budgets = (
      this.api.view(pdbType, { namespace }) as unknown as readonly PodDisruptionBudget[]
    ).filter((b) => matchesLabelSelector(b.spec.selector, pod.metadata.labels));
    if (budgets.length === 0) return;
    const now = this.api.view(this.api.typeOf('v1', 'Pod'), { namespace });
    const pods = gone ? [...now, leaving(pod, this.clock.now())] : now;
    for (const pdb of budgets) {
      const status = budgetStatus(pdb, pods, controllerScales(this.api, namespace));
      if (status.currentHealthy >= status.desiredHealthy) continue;
      this.violations.push({
        pdb: key(pdb),
        pod: key(pod),
        at: this.clock.now(),
        how,
        currentHealthy: status.currentHealthy,
        desiredHealthy: status.desiredHealthy,
      });
    }
  }
}

/** The pod as an unhealthy member of its budgets (terminating). */
function leaving(pod: KubeObject, nowMs: number): KubeObject {
  return { ...pod, metadata: { ...pod.metadata, deletionTimestamp: timestamp(nowMs) } };
}
