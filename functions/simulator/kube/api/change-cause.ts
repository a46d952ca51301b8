/**
 * Why the simulated API server is changing or removing a pod, so that observers of its storage
 * (the disruption ledger) can tell a disruption from a workload's own lifecycle.
 */

/**
 * - `delete`: a DELETE of the pod (a client, a scenario step);
 * - `evict`: the Eviction API (`pods/eviction`), after the PodDisruptionBudget check;
 * - `node-gone`: its node or instance vanished (pods marked NotReady by the node lifecycle
 *   controller, pods collected after their Node object was deleted);
 * - `owner`: its own controller (scale-down, a DaemonSet leaving a node, an owner deleted).
 */
export type PodChangeCause = 'delete' | 'evict' | 'node-gone' | 'owner';
