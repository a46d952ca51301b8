/**
 * The RuntimeClass admission plugin of the real API server, for pods created in the simulated one:
 * a pod naming a RuntimeClass gets its `overhead.podFixed`, node selector and tolerations (the same
 * admission `joiner plan` applies to pods in files, so plan and the simulation size pods alike).
 * A pod whose RuntimeClass does not exist, whose own overhead differs from the class's, or whose
 * node selector conflicts with the class's is refused with 403, as the real plugin refuses it.
 */
import { isDeepStrictEqual } from 'node:util';
import type { Pod, RuntimeClass } from '../../../core/model/kube-objects.js';
import { admitRuntimeClass } from '../../../core/provisioning/file-snapshot.js';
import { forbidden } from './api-error.js';
import type { KubeObject } from './object-store.js';

/**
 * Applies `pod`'s RuntimeClass to it in place (see the file comment); `lookup` reads a RuntimeClass
 * by name. A pod without `runtimeClassName` is left as it is.
 */
export function admitPodRuntimeClass(
  pod: KubeObject,
  lookup: (name: string) => KubeObject | undefined,
): void {
  const spec = (pod.spec ?? {}) as { runtimeClassName?: string; overhead?: Record<string, string> };
  const name = spec.runtimeClassName;
  if (name === undefined || name === '') return;
  const refuse = (why: string) => forbidden('pods', '', pod.metadata.name, `pod rejected: ${why}`);
  const rc = lookup(name) as unknown as RuntimeClass | undefined;
  if (!rc) throw refuse(`RuntimeClass "${name}" not found`);
  const fixed = rc.overhead?.podFixed;
  if (spec.overhead !== undefined && fixed !== undefined && !isDeepStrictEqual(spec.overhead, fixed))
    throw refuse("Pod's Overhead doesn't match RuntimeClass's defined Overhead");
  let admitted: Pod;
  try {
    admitted = admitRuntimeClass(pod as unknown as Pod, [rc]);
  } catch (error) {
    throw refuse((error as Error).message);
  }
  pod.spec = admitted.spec as unknown as KubeObject['spec'];
}
