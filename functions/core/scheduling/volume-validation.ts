/**
 * Pods whose volumes cannot be provisioned or attached stay pending, as Karpenter leaves them
 * (its ValidatePersistentVolumeClaims): a claim that does not exist, a claim bound to a volume
 * that does not exist, or a claim not bound yet without a StorageClass it can be provisioned from
 * (none named and no default class, an empty name, or a class that does not exist). A node
 * launched for such a pod would stay empty.
 */
import type { Pod } from '../model/kube-objects.js';
import type { VolumeIndex } from './volume-requirements.js';

/** Why the pod's volumes keep it pending, or undefined when they do not. */
export function volumeProblem(pod: Pod, index: VolumeIndex): string | undefined {
  const ns = pod.metadata.namespace ?? 'default';
  for (const volume of pod.spec.volumes ?? []) {
    const named = volume.persistentVolumeClaim?.claimName;
    const template = volume.ephemeral?.volumeClaimTemplate?.spec;
    if (!named && !template) continue;
    const claimName = named ?? `${pod.metadata.name}-${volume.name}`;
    const pvc = index.pvcs.get(`${ns}/${claimName}`);
    // A generic ephemeral volume's claim is created with the pod: its template stands for it meanwhile.
    if (!pvc && named) return `persistentvolumeclaim "${claimName}" not found`;
    const spec = pvc?.spec ?? template;
    if (!spec) continue;
    if (spec.volumeName) {
      if (!index.pvs.has(spec.volumeName))
        return `persistentvolumeclaim "${claimName}": persistentvolume "${spec.volumeName}" not found`;
      continue;
    }
    const className = spec.storageClassName ?? index.defaultClass?.metadata.name ?? '';
    if (className === '') return `unbound persistentvolumeclaim "${claimName}" must define a storage class`;
    if (!index.classes.has(className))
      return `persistentvolumeclaim "${claimName}": storageclass "${className}" not found`;
  }
  return undefined;
}
