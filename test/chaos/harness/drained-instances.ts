/**
 * Which instances joiner drained during a chaos run: an instance counts once its Node carried the
 * `karpenter.sh/disrupted` taint (the first thing a drain does to the node, after its claim's
 * state). A reclaimed instance whose node never got it was killed with no drain at all, which is
 * joiner's doing (it dropped the warning), not the reclaim's (attribution.ts).
 */
import { instanceIdOf } from '../../../functions/core/lifecycle/node-labels.js';
import type { Node } from '../../../functions/core/model/kube-objects.js';
import type { ObjectStore } from '../../../functions/simulator/kube/api/object-store.js';
import { DISRUPTED_TAINT_KEY } from '../../../functions/simulator/scenario/disruption-recorder.js';

/** Records the instances whose Node ever carried the disrupted taint, until stopped. */
export class DrainedInstances {
  private readonly drained = new Set<string>();
  private readonly unsubscribe: () => void;

  constructor(store: ObjectStore) {
    this.unsubscribe = store.subscribe((event) => {
      if (event.resource !== '/nodes' || event.type === 'DELETED') return;
      const node = event.object as unknown as Node;
      if (!(node.spec?.taints ?? []).some((t) => t.key === DISRUPTED_TAINT_KEY)) return;
      const instance = instanceIdOf(node.spec?.providerID);
      if (instance) this.drained.add(instance);
    });
  }

  /** The instances drained so far. */
  instances(): ReadonlySet<string> {
    return this.drained;
  }

  /** Stops watching. */
  stop(): void {
    this.unsubscribe();
  }
}
