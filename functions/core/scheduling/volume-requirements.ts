/**
 * Zone constraints from a pod's volumes, as the kube-scheduler's VolumeBinding / VolumeZone see
 * them: a bound PV's node affinity; for a claim not bound yet (a `WaitForFirstConsumer`
 * StorageClass provisions where the pod lands), its StorageClass's `allowedTopologies`. Generic
 * ephemeral volumes are claims named `<pod>-<volume>` (their template when the claim does not
 * exist yet). CSI zone keys (EBS CSI's `topology.ebs.csi.aws.com/zone`) mean the node's zone.
 */
import type {
  PersistentVolume,
  PersistentVolumeClaim,
  PersistentVolumeClaimSpec,
  Pod,
  StorageClass,
  TopologySelectorTerm,
} from '../model/kube-objects.js';
import { termRequirements } from './node-affinity.js';
import { Requirements } from './requirements.js';
import { ZONE } from './well-known.js';

/** Lookup of PVs, PVCs and StorageClasses by name. */
export interface VolumeIndex {
  readonly pvs: ReadonlyMap<string, PersistentVolume>;
  readonly pvcs: ReadonlyMap<string, PersistentVolumeClaim>;
  readonly classes: ReadonlyMap<string, StorageClass>;
  /** The cluster's default StorageClass (annotation `storageclass.kubernetes.io/is-default-class`). */
  readonly defaultClass?: StorageClass;
}

const DEFAULT_CLASS_ANNOTATION = 'storageclass.kubernetes.io/is-default-class';

/** Indexes PVs by name, PVCs by `namespace/name` and StorageClasses by name. */
export function volumeIndex(
  pvs: readonly PersistentVolume[],
  pvcs: readonly PersistentVolumeClaim[],
  storageClasses: readonly StorageClass[] = [],
): VolumeIndex {
  const defaults = storageClasses
    .filter((c) => c.metadata.annotations?.[DEFAULT_CLASS_ANNOTATION] === 'true')
    .sort((a, b) => (b.metadata.creationTimestamp ?? '').localeCompare(a.metadata.creationTimestamp ?? ''));
  return {
    pvs: new Map(pvs.map((pv) => [pv.metadata.name, pv])),
    pvcs: new Map(pvcs.map((c) => [`${c.metadata.namespace ?? 'default'}/${c.metadata.name}`, c])),
    classes: new Map(storageClasses.map((c) => [c.metadata.name, c])),
    ...(defaults[0] ? { defaultClass: defaults[0] } : {}),
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

/** The StorageClass a claim's volume is provisioned from (`""` means none; unset means the default). */
function classOf(spec: PersistentVolumeClaimSpec, index: VolumeIndex): StorageClass | undefined {
  const name = spec.storageClassName;
  if (name === '' || name === null) return undefined;
  if (name === undefined) return index.defaultClass;
  return index.classes.get(name);
}

function topologyTerm(term: TopologySelectorTerm): Requirements {
  return Requirements.of(
    (term.matchLabelExpressions ?? []).map((e) => ({
      key: e.key,
      operator: 'In' as const,
      values: e.values,
    })),
  );
}

/** The alternatives (OR) where a not-yet-bound claim's volume can be provisioned; `[EMPTY]` when anywhere. */
function provisioningAlternatives(spec: PersistentVolumeClaimSpec, index: VolumeIndex): Requirements[] {
  const terms = classOf(spec, index)?.allowedTopologies ?? [];
  if (terms.length === 0) return [Requirements.EMPTY];
  return terms.map((t) => zoneAliased(topologyTerm(t)));
}

/** The alternatives one volume of the pod allows; `[EMPTY]` when it does not constrain the node. */
function volumeAlternatives(
  pod: Pod,
  volume: NonNullable<Pod['spec']['volumes']>[number],
  index: VolumeIndex,
) {
  const ns = pod.metadata.namespace ?? 'default';
  const template = volume.ephemeral?.volumeClaimTemplate?.spec;
  const claimName =
    volume.persistentVolumeClaim?.claimName ?? (template ? `${pod.metadata.name}-${volume.name}` : undefined);
  if (!claimName) return [Requirements.EMPTY];
  const pvc = index.pvcs.get(`${ns}/${claimName}`);
  if (!pvc) return template ? provisioningAlternatives(template, index) : [Requirements.EMPTY];
  const pv = boundVolume(index, pvc);
  if (pv) {
    const terms = pv.spec.nodeAffinity?.required?.nodeSelectorTerms;
    // Only the PV's first term, like Karpenter.
    return terms && terms.length > 0 ? [zoneAliased(termRequirements(terms[0]))] : [Requirements.EMPTY];
  }
  return provisioningAlternatives(pvc.spec, index);
}

/**
 * Requirements the pod's persistent volumes put on its node, as OR-ed alternatives (a StorageClass
 * with several `allowedTopologies` terms gives several): `[EMPTY]` when no volume constrains the pod.
 * Alternatives that cannot hold together are dropped.
 */
export function volumeRequirements(pod: Pod, index: VolumeIndex): Requirements[] {
  let alternatives: Requirements[] = [Requirements.EMPTY];
  for (const volume of pod.spec.volumes ?? []) {
    const alts = volumeAlternatives(pod, volume, index);
    if (alts.length === 1 && alts[0].size === 0) continue;
    const next: Requirements[] = [];
    for (const a of alternatives) for (const b of alts) next.push(a.and(b));
    alternatives = next;
  }
  const possible = alternatives.filter((a) => a.emptyKey() === undefined);
  return possible.length > 0 ? possible : alternatives.slice(0, 1);
}
