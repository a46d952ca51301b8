/** Zone constraints from a pod's volumes: bound PVs' node affinity, and the PVCs they come from. */
import type { PersistentVolume, PersistentVolumeClaim, Pod } from '../model/kube-objects.js';
import { termRequirements } from './node-affinity.js';
import { Requirements } from './requirements.js';
import { ZONE } from './well-known.js';

/** Lookup of PVs and PVCs by name. */
export interface VolumeIndex {
  readonly pvs: ReadonlyMap<string, PersistentVolume>;
  readonly pvcs: ReadonlyMap<string, PersistentVolumeClaim>;
}

/** Indexes PVs by name and PVCs by `namespace/name`. */
export function volumeIndex(
  pvs: readonly PersistentVolume[],
  pvcs: readonly PersistentVolumeClaim[],
): VolumeIndex {
  return {
    pvs: new Map(pvs.map((pv) => [pv.metadata.name, pv])),
    pvcs: new Map(pvcs.map((c) => [`${c.metadata.namespace ?? 'default'}/${c.metadata.name}`, c])),
  };
}

function boundVolume(index: VolumeIndex, pvc: PersistentVolumeClaim): PersistentVolume | undefined {
  if (pvc.spec.volumeName) return index.pvs.get(pvc.spec.volumeName);
  const ns = pvc.metadata.namespace ?? 'default';
  for (const pv of index.pvs.values()) {
    const ref = pv.spec.claimRef;
    if (ref?.name === pvc.metadata.name && (ref.namespace ?? 'default') === ns) return pv;
  }
  return undefined;
}

/** Zone keys of CSI drivers and the deprecated beta label, which nodes carry as the well-known zone. */
const ZONE_ALIASES = ['topology.ebs.csi.aws.com/zone', 'failure-domain.beta.kubernetes.io/zone'];

function zoneAliased(reqs: Requirements): Requirements {
  let out = reqs;
  for (const alias of ZONE_ALIASES) {
    const set = reqs.get(alias);
    if (!set) continue;
    out = Requirements.of(out.toList().filter((r) => r.key !== alias)).and(
      Requirements.EMPTY.with(ZONE, set),
    );
  }
  return out;
}

/**
 * Requirements the pod's persistent volumes put on its node: the node affinity of each bound PV
 * (only its first term when it has several, like Karpenter). Empty when no volume constrains the pod.
 */
export function volumeRequirements(pod: Pod, index: VolumeIndex): Requirements {
  let reqs = Requirements.EMPTY;
  const ns = pod.metadata.namespace ?? 'default';
  for (const volume of pod.spec.volumes ?? []) {
    const claimName = volume.persistentVolumeClaim?.claimName;
    if (!claimName) continue;
    const pvc = index.pvcs.get(`${ns}/${claimName}`);
    if (!pvc) continue;
    const pv = boundVolume(index, pvc);
    const terms = pv?.spec.nodeAffinity?.required?.nodeSelectorTerms;
    if (terms && terms.length > 0) reqs = reqs.and(zoneAliased(termRequirements(terms[0])));
  }
  return reqs;
}
