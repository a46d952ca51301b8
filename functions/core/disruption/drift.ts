/**
 * Whether a launched node has drifted from its NodePool and NodeClass, in Karpenter's order:
 * static NodePool drift (template hash), requirements drift (node labels against the NodePool's
 * requirements), static NodeClass drift (spec hash), then cloud drift against what the NodeClass
 * resolves to now: AMI, security groups, subnet. Hashes are compared only when the claim was
 * stamped with the current hash version; a claim stamped by another version is left alone, as
 * Karpenter re-stamps such claims instead of drifting them. Cloud drift is judged only on what is
 * known: a missing instance fact or an empty resolution decides nothing.
 */
import { parseInstanceTypeName } from '../catalog/labels.js';
import * as L from '../catalog/well-known-labels.js';
import { imageFor, variantOfLabels } from '../launch/ami-variant.js';
import type { NodeClass } from '../model/node-class.js';
import type { NodePool } from '../model/node-pool.js';
import type { Requirement } from '../model/requirement.js';
import type { NodeClaim } from '../nodeclaim/nodeclaim.js';
import type { NodeClassResolution } from '../ports/cloud-provider.js';
import {
  describeSet,
  intersectSets,
  isEmptySet,
  labelSatisfies,
  type ValueSet,
  valueSetOf,
} from '../scheduling/requirement-set.js';
import {
  NODECLASS_HASH_VERSION,
  NODEPOOL_HASH_VERSION,
  nodeClassDriftHash,
  nodePoolDriftHash,
} from './drift-hashes.js';

/** Why a node is drifted (Karpenter's reasons, named as joiner reports them). */
export type DriftReason =
  | 'NodePoolDrifted'
  | 'NodeClassDrifted'
  | 'RequirementsDrifted'
  | 'AMIDrifted'
  | 'SubnetDrifted'
  | 'SecurityGroupDrifted';

/** A drifted node: the first reason found, and a sentence for events and logs. */
export interface Drift {
  readonly reason: DriftReason;
  readonly message: string;
}

/** What EC2 says of the node's instance now. */
export interface DriftInstance {
  readonly imageId?: string;
  readonly subnetId?: string;
  readonly securityGroupIds?: readonly string[];
}

/** What the NodeClass's selector terms resolve to now (images of every architecture). */
export type DriftResolution = Omit<NodeClassResolution, 'zones'>;

/** A launched claim, its node's labels, its NodePool and NodeClass as they are now, and cloud facts. */
export interface DriftInput {
  readonly claim: NodeClaim;
  readonly nodeLabels: Readonly<Record<string, string>>;
  readonly nodePool: NodePool;
  readonly nodeClass: NodeClass;
  readonly instance?: DriftInstance;
  /** Without it, cloud drift (AMI, subnet, security groups) is not checked. */
  readonly resolved?: DriftResolution;
}

/**
 * Labels Karpenter puts on a node from its instance type that joiner's nodes do not carry and
 * this check cannot derive from the instance type's name: absent, they are unknown, not drift.
 */
const INSTANCE_FACT_LABELS: ReadonlySet<string> = new Set([
  L.LABEL_INSTANCE_CPU,
  L.LABEL_INSTANCE_MEMORY,
  L.LABEL_INSTANCE_GPU_COUNT,
  L.LABEL_INSTANCE_GPU_NAME,
  L.LABEL_INSTANCE_GPU_MANUFACTURER,
  L.LABEL_INSTANCE_GPU_MEMORY,
  L.LABEL_INSTANCE_NETWORK_BANDWIDTH,
  L.LABEL_INSTANCE_EBS_BANDWIDTH,
  L.LABEL_INSTANCE_ACCELERATOR_NAME,
  L.LABEL_INSTANCE_ACCELERATOR_MANUFACTURER,
  L.LABEL_INSTANCE_ACCELERATOR_COUNT,
  L.LABEL_INSTANCE_LOCAL_NVME,
  L.LABEL_INSTANCE_HYPERVISOR,
  L.LABEL_INSTANCE_ENCRYPTION_IN_TRANSIT,
]);

/** The first drift of the node (see the file comment), or undefined when it is not drifted. */
export function driftOf(input: DriftInput): Drift | undefined {
  return nodePoolDrift(input) ?? requirementsDrift(input) ?? nodeClassDrift(input) ?? cloudDrift(input);
}

function nodePoolDrift({ claim, nodePool }: DriftInput): Drift | undefined {
  if (claim.nodePoolHashVersion !== NODEPOOL_HASH_VERSION) return undefined;
  const now = nodePoolDriftHash(nodePool);
  if (now === claim.nodePoolHash) return undefined;
  return {
    reason: 'NodePoolDrifted',
    message: `NodePool "${nodePool.name}" changed since the node was launched (hash ${claim.nodePoolHash} → ${now})`,
  };
}

function nodeClassDrift({ claim, nodeClass }: DriftInput): Drift | undefined {
  if (claim.nodeClassHashVersion !== NODECLASS_HASH_VERSION) return undefined;
  const now = nodeClassDriftHash(nodeClass);
  if (now === claim.nodeClassHash) return undefined;
  return {
    reason: 'NodeClassDrifted',
    message: `EC2NodeClass "${nodeClass.name}" changed since the node was launched (hash ${claim.nodeClassHash} → ${now})`,
  };
}

/**
 * Karpenter's `Compatible` between the node's labels and the NodePool's requirements: a label the
 * node has must satisfy the requirement on its key; a key the node lacks is fine under NotIn and
 * DoesNotExist and drift under any other operator. joiner labels a node only with the values its
 * claim pinned, so a lacking key the claim was launched under is judged by whether the claim's
 * requirement still meets the NodePool's, and instance facts joiner does not label are unknown.
 */
function requirementsDrift({ claim, nodeLabels, nodePool }: DriftInput): Drift | undefined {
  const labels = {
    ...instanceNameLabels(nodeLabels[L.LABEL_INSTANCE_TYPE] ?? claim.instance?.instanceType),
    ...nodeLabels,
  };
  const launchedUnder = setsByKey(claim.requirements);
  for (const [key, set] of setsByKey(nodePool.requirements)) {
    const value = labels[key];
    const wanted = `${key} ${describeSet(set)}`;
    if (value !== undefined) {
      if (labelSatisfies(set, value)) continue;
      return requirementsDrifted(
        `node label ${key}=${value} does not satisfy NodePool "${nodePool.name}" requirement ${wanted}`,
      );
    }
    if (set.allowsAbsent) continue;
    const before = launchedUnder.get(key);
    if (before ? !isEmptySet(intersectSets(before, set)) : INSTANCE_FACT_LABELS.has(key)) continue;
    return requirementsDrifted(
      before
        ? `node was launched under ${key} ${describeSet(before)}, which NodePool "${nodePool.name}" no longer allows (${wanted})`
        : `node has no label ${key}, which NodePool "${nodePool.name}" requires (${wanted})`,
    );
  }
  return undefined;
}

function requirementsDrifted(message: string): Drift {
  return { reason: 'RequirementsDrifted', message };
}

/** Family, category, generation and size labels read from an instance type's name. */
function instanceNameLabels(instanceType: string | undefined): Record<string, string> {
  if (!instanceType) return {};
  try {
    const parts = parseInstanceTypeName(instanceType);
    return {
      [L.LABEL_INSTANCE_FAMILY]: parts.family,
      [L.LABEL_INSTANCE_CATEGORY]: parts.category,
      [L.LABEL_INSTANCE_GENERATION]: parts.generation,
      [L.LABEL_INSTANCE_SIZE]: parts.size,
    };
  } catch {
    return {};
  }
}

/** One value set per key (repeated keys intersected); a malformed requirement is left out. */
function setsByKey(requirements: readonly Requirement[]): Map<string, ValueSet> {
  const sets = new Map<string, ValueSet>();
  for (const r of requirements) {
    let set: ValueSet;
    try {
      set = valueSetOf(r);
    } catch {
      continue;
    }
    const prev = sets.get(r.key);
    sets.set(r.key, prev ? intersectSets(prev, set) : set);
  }
  return sets;
}

/** AMI, then security groups, then subnet, as Karpenter's AWS provider checks them. */
function cloudDrift({ claim, nodeClass, nodeLabels, instance, resolved }: DriftInput): Drift | undefined {
  if (!resolved) return undefined;
  const where = `EC2NodeClass "${nodeClass.name}"`;
  const imageId = instance?.imageId ?? claim.instance?.imageId;
  const compatible = compatibleImages(resolved, nodeLabels);
  if (imageId && compatible && !compatible.includes(imageId))
    return {
      reason: 'AMIDrifted',
      message:
        compatible.length > 0
          ? `AMI ${imageId} is no longer selected by ${where} (now ${list(compatible)})`
          : `AMI ${imageId}: ${where} selects no image for this node's architecture and accelerators`,
    };
  const groups = instance?.securityGroupIds;
  if (groups && groups.length > 0 && resolved.securityGroupIds.length > 0) {
    const have = new Set(groups);
    const want = new Set(resolved.securityGroupIds);
    if (have.size !== want.size || [...have].some((g) => !want.has(g)))
      return {
        reason: 'SecurityGroupDrifted',
        message: `security groups ${list(groups)} differ from those ${where} selects (now ${list(resolved.securityGroupIds)})`,
      };
  }
  const subnetId = instance?.subnetId;
  if (subnetId && resolved.subnetIds.length > 0 && !resolved.subnetIds.includes(subnetId))
    return {
      reason: 'SubnetDrifted',
      message: `subnet ${subnetId} is no longer selected by ${where} (now ${list(resolved.subnetIds)})`,
    };
  return undefined;
}

/**
 * The images a node may run without drifting: its architecture's image of the variant its
 * instance type needs when the resolution says per variant (a GPU node on the standard image, or
 * on an nvidia image the alias no longer names, is drifted, as in Karpenter), else every
 * selected image. Undefined when nothing is known to compare with.
 */
function compatibleImages(
  resolved: DriftResolution,
  nodeLabels: Readonly<Record<string, string>>,
): readonly string[] | undefined {
  const arch = nodeLabels[L.LABEL_ARCH];
  if (resolved.images && (arch === 'amd64' || arch === 'arm64')) {
    const id = imageFor(resolved.images, arch, variantOfLabels(nodeLabels));
    return id ? [id] : [];
  }
  return resolved.imageIds.length > 0 ? resolved.imageIds : undefined;
}

function list(ids: readonly string[]): string {
  return [...new Set(ids)].sort().join(', ');
}
