/**
 * Where pods ran while a scenario plays, for the `podsStayed` expectation: every pod seen Running
 * (with its node and labels), which of them are still there, and snapshots taken by `mark` steps.
 * A pod never changes node, so a pod "stayed" when it is still there and not terminating; a
 * replacement pod, even on the same node, is a move.
 */
import type { Pod } from '../../core/model/kube-objects.js';
import type { ObjectStore, StoreEvent } from '../kube/api/object-store.js';

/** A pod that ran on a node. */
export interface PodPlacement {
  readonly uid: string;
  readonly namespace: string;
  readonly name: string;
  readonly labels: Readonly<Record<string, string>>;
  readonly node: string;
}

/** Which pods `podsStayed` looks at. */
export interface StayQuery {
  /** Labels the pods carry (all of them). */
  readonly selector: Readonly<Record<string, string>>;
  /** Only pods of this namespace (default: any). */
  readonly namespace?: string;
  /** The `mark` step whose Running pods are checked (default: the latest mark, or every pod that ran). */
  readonly since?: string;
}

/** Records pod placements and marks until stopped. */
export class PodPlacements {
  private readonly ran = new Map<string, PodPlacement>();
  /** uid -> virtual ms it got a deletionTimestamp (0 = not terminating), for pods still stored. */
  private readonly live = new Map<string, number>();
  /** uid -> virtual ms it was removed. */
  private readonly gone = new Map<string, number>();
  private readonly marks = new Map<string, PodPlacement[]>();
  private lastMark?: string;
  private readonly origin: number;
  private readonly unsubscribe: () => void;

  constructor(
    store: ObjectStore,
    private readonly now: () => number,
  ) {
    this.origin = now();
    this.unsubscribe = store.subscribe((event) => this.onEvent(event));
  }

  /** Stops watching. */
  stop(): void {
    this.unsubscribe();
  }

  /** Remembers the pods Running (and not terminating) now under `name`. */
  mark(name: string): number {
    const running = [...this.ran.values()].filter((p) => this.live.get(p.uid) === 0);
    this.marks.set(name, running);
    this.lastMark = name;
    return running.length;
  }

  /** The marks taken so far. */
  markNames(): string[] {
    return [...this.marks.keys()];
  }

  /** What broke the query: one line per matching pod that is gone or terminating; empty when all stayed. */
  problems(query: StayQuery): string[] {
    const since = query.since ?? this.lastMark;
    if (since !== undefined && !this.marks.has(since)) return [`no mark named ${since} was taken`];
    const baseline = since === undefined ? [...this.ran.values()] : (this.marks.get(since) ?? []);
    const wanted = baseline.filter(
      (p) =>
        (query.namespace === undefined || p.namespace === query.namespace) &&
        Object.entries(query.selector).every(([k, v]) => p.labels[k] === v),
    );
    const at = since === undefined ? 'ever' : `at mark ${since}`;
    if (wanted.length === 0) return [`no pod matching ${JSON.stringify(query.selector)} was Running ${at}`];
    const out: string[] = [];
    for (const p of wanted) {
      const where = `${p.namespace}/${p.name} (on ${p.node})`;
      const terminating = this.live.get(p.uid);
      if (terminating === undefined) out.push(`${where} removed at ${this.seconds(this.gone.get(p.uid))}`);
      else if (terminating > 0) out.push(`${where} terminating since ${this.seconds(terminating)}`);
    }
    return out;
  }

  private seconds(at: number | undefined): string {
    return at === undefined ? '?' : `${Math.round((at - this.origin) / 1000)} s`;
  }

  private onEvent(event: StoreEvent): void {
    if (event.resource !== '/pods') return;
    const pod = event.object as unknown as Pod;
    const uid = pod.metadata.uid ?? `${pod.metadata.namespace}/${pod.metadata.name}`;
    if (event.type === 'DELETED') {
      if (this.live.delete(uid)) this.gone.set(uid, this.now());
      return;
    }
    const terminating = pod.metadata.deletionTimestamp ? this.live.get(uid) || this.now() : 0;
    this.live.set(uid, terminating);
    if (this.ran.has(uid) || pod.status?.phase !== 'Running' || !pod.spec?.nodeName) return;
    this.ran.set(uid, {
      uid,
      namespace: pod.metadata.namespace ?? 'default',
      name: pod.metadata.name,
      labels: { ...pod.metadata.labels },
      node: pod.spec.nodeName,
    });
  }
}
