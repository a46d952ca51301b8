/**
 * Drives the simulated control plane: after changes to workloads, pods or nodes it runs the
 * controllers (Deployments, ReplicaSets, DaemonSets, garbage collection, PDB status) and a
 * kube-scheduler pass; the scheduler also runs periodically on the virtual clock.
 */
import type { VirtualClock } from '../clock.js';
import type { KubeApi } from './api/kube-api.js';
import type { StoreEvent } from './api/object-store.js';
import { reconcileDaemonSets } from './controllers/daemonset-controller.js';
import { collectGarbage, updateBudgets } from './controllers/housekeeping.js';
import { reconcileReplicas } from './controllers/replica-controllers.js';
import { ReplicaIndex } from './controllers/replica-index.js';
import type { KubeScheduler } from './scheduler/kube-scheduler.js';
import type { TaskRunner } from './task-runner.js';

const WATCHED = new Set([
  'apps/deployments',
  'apps/replicasets',
  'apps/daemonsets',
  '/pods',
  '/nodes',
  'policy/poddisruptionbudgets',
]);

/** Resources whose deletion can leave garbage (pods on a gone node, objects of a gone owner). */
const OWNERS = new Set([
  '/nodes',
  'apps/replicasets',
  'apps/deployments',
  'apps/daemonsets',
  'apps/statefulsets',
]);

/** The loop; `stop()` ends it. */
export class ControlLoop {
  private pending?: NodeJS.Immediate;
  /** A controllers pass is queued and has not started reading yet: further changes wait for it. */
  private passQueued = false;
  private stopped = false;
  private readonly unsubscribe: () => void;
  /** The ReplicaSet controller's pods by owner, kept from the store's changes. */
  private readonly replicaPods: ReplicaIndex;
  /**
   * What garbage collection must look at in the next pass: every pod (at the start, and after a
   * node or an owner went), or only the pods that changed since the last pass.
   */
  private garbage: { all: boolean; pods: Set<string> } = { all: true, pods: new Set() };

  constructor(
    private readonly api: KubeApi,
    private readonly scheduler: KubeScheduler,
    private readonly tasks: TaskRunner,
    private readonly clock: VirtualClock,
    private readonly intervalMs: number,
  ) {
    this.unsubscribe = api.store.subscribe((e) => this.onEvent(e));
    this.replicaPods = new ReplicaIndex(api);
    const tick = (): void => {
      if (this.stopped) return;
      void this.tasks.run('scheduler', () => this.scheduler.pass());
      this.clock.setTimeout(tick, this.intervalMs);
    };
    this.clock.setTimeout(tick, this.intervalMs);
  }

  /** Resolves once no change is waiting to be reconciled and no task is running. */
  async idle(): Promise<void> {
    for (let i = 0; i < 1000; i++) {
      await this.tasks.idle();
      await new Promise((r) => setImmediate(r));
      if (!this.pending && !this.tasks.busy) return;
    }
  }

  stop(): void {
    this.stopped = true;
    this.unsubscribe();
    this.replicaPods.stop();
    if (this.pending) clearImmediate(this.pending);
    this.pending = undefined;
  }

  private onEvent(e: StoreEvent): void {
    if (this.stopped) return;
    if (e.resource === '/pods')
      this.garbage.pods.add(`${e.object.metadata.namespace ?? ''}/${e.object.metadata.name}`);
    else if (e.type === 'DELETED' && OWNERS.has(e.resource)) this.garbage.all = true;
    if (!WATCHED.has(e.resource) || this.pending || this.passQueued) return;
    this.pending = setImmediate(() => {
      this.pending = undefined;
      this.passQueued = true;
      void this.tasks.run('controllers', async () => {
        // Lets the event loop serve requests between passes; changes until the pass starts reading
        // are covered by it, later ones (its own writes included) queue one more pass.
        await new Promise((r) => setImmediate(r));
        this.passQueued = false;
        // Changes from here on (this pass's own writes included) are the next pass's to collect.
        const garbage = this.garbage;
        this.garbage = { all: false, pods: new Set() };
        await reconcileReplicas(this.api, this.replicaPods);
        await reconcileDaemonSets(this.api);
        const refused = await collectGarbage(this.api, garbage.all ? undefined : garbage.pods);
        for (const key of refused) this.garbage.pods.add(key);
        await updateBudgets(this.api);
        await this.scheduler.pass();
      });
    });
  }
}
