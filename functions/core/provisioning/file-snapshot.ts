/**
 * The cluster snapshot of documents read from files (`joiner plan`), so that plan goes through the
 * provisioner's own planning (plan-run.ts). Pods are admitted as the API server admits them: a
 * pod's RuntimeClass adds its overhead, node selector and tolerations (the RuntimeClass admission
 * plugin). Pods with a node name are bound to it; the others are pending.
 */
import type { LoadedConfig } from '../model/config/load.js';
import type { Pod, RuntimeClass } from '../model/kube-objects.js';
import { pendingPods } from '../scheduling/cluster-view.js';
import type { ClusterSnapshot } from './cluster-snapshot.js';

/** Thrown when a pod names a RuntimeClass the files do not have (the API server refuses it too). */
export class MissingRuntimeClassError extends Error {}

/**
 * `pod` as the RuntimeClass admission plugin leaves it: with its RuntimeClass's overhead (when it
 * sets none itself), node selector (merged; a conflicting value is an error) and tolerations.
 */
export function admitRuntimeClass(pod: Pod, runtimeClasses: readonly RuntimeClass[]): Pod {
  const name = pod.spec.runtimeClassName;
  if (name === undefined || name === '') return pod;
  const rc = runtimeClasses.find((r) => r.metadata.name === name);
  const where = `pod ${pod.metadata.namespace ?? 'default'}/${pod.metadata.name}`;
  if (!rc) throw new MissingRuntimeClassError(`${where}: RuntimeClass "${name}" is not in the files`);
  const spec = { ...pod.spec };
  const fixed = rc.overhead?.podFixed;
  if (fixed && spec.overhead === undefined) spec.overhead = { ...fixed };
  const selector = rc.scheduling?.nodeSelector;
  if (selector) {
    for (const [key, value] of Object.entries(selector)) {
      const own = spec.nodeSelector?.[key];
      if (own !== undefined && own !== value)
        throw new Error(
          `${where}: nodeSelector ${key}=${own} conflicts with RuntimeClass "${name}" (${value})`,
        );
    }
    spec.nodeSelector = { ...(spec.nodeSelector ?? {}), ...selector };
  }
  const tolerations = rc.scheduling?.tolerations;
  if (tolerations) spec.tolerations = [...(spec.tolerations ?? []), ...tolerations];
  return { ...pod, spec };
}

/** The snapshot of `loaded`'s configuration and workloads (see the file comment). */
export function snapshotFromFiles(loaded: LoadedConfig): ClusterSnapshot {
  const w = loaded.workloads;
  const pods = w.pods.map((p) => admitRuntimeClass(p, w.runtimeClasses));
  return {
    pendingPods: pendingPods(pods),
    nodes: w.nodes,
    boundPods: pods.filter((p) => p.spec.nodeName !== undefined && p.spec.nodeName !== ''),
    daemonSets: w.daemonSets,
    persistentVolumes: w.persistentVolumes,
    persistentVolumeClaims: w.persistentVolumeClaims,
    storageClasses: w.storageClasses,
    nodePools: loaded.nodePools,
    nodeClasses: loaded.nodeClasses,
    nodeOverlays: loaded.nodeOverlays,
    invalidDocuments: loaded.documents.filter((d) => !d.ok).length,
    unmanagedNodePools: [],
  };
}
