import type { AmiVariant, ResolvedImages } from './ami-variant.js';
import type { ClusterInfo } from './cluster-info.js';

/** A subnet a NodeClass selected, with what launching into it needs. */
export interface ResolvedSubnet {
  readonly subnetId: string;
  readonly zone: string;
  /** The zone's ID (EC2 `AvailabilityZoneId`, e.g. `usw2-az1`), when EC2 gave it. */
  readonly zoneId?: string;
  readonly availableIps: number;
}

/** The security groups and subnets a Multus interface selected. */
export interface ResolvedMultusInterface {
  readonly subnets: readonly ResolvedSubnet[];
  readonly securityGroupIds: readonly string[];
}

/**
 * A NodeClass resolved against the cloud (by the AWS providers, cached): what the pure launch
 * planning needs besides the NodeClass itself.
 */
export interface ResolvedNodeClass extends ResolvedImages {
  readonly cluster: ClusterInfo;
  readonly instanceProfile: string;
  readonly subnets: readonly ResolvedSubnet[];
  readonly securityGroupIds: readonly string[];
  /** One entry per `nodeClass.multusInterfaces` entry, same order. */
  readonly multus: readonly ResolvedMultusInterface[];
}

/** Per instance type facts the launch needs (from the catalog). */
export interface InstanceFacts {
  readonly arch: 'amd64' | 'arm64';
  /** The AMI variant its accelerators need (standard when none; see {@link AmiVariant}). */
  readonly variant?: AmiVariant;
  /** Max pods on this NodeClass (ENI-limited, Multus ENIs subtracted, kubelet maxPods applied). */
  readonly maxPods: number;
  /**
   * EFA interfaces a node of this type gets when its pods request `vpc.amazonaws.com/efa` (its
   * `vpc.amazonaws.com/efa` capacity on this NodeClass); absent when it has none.
   */
  readonly efaInterfaces?: number;
  /**
   * The type's labels (instance type, arch, os, region, family, size, cpu, memory...), which its
   * nodes carry as Karpenter's do: set on the node when it registers.
   */
  readonly labels?: Readonly<Record<string, string>>;
}

/**
 * The zones a NodeClass can launch in: those where its own subnets and every Multus interface's
 * subnets all have one. Offerings elsewhere are not offered to the scheduler, as Karpenter offers
 * only the zones of a NodeClass's subnets.
 */
export function launchZones(resolved: {
  readonly subnets: readonly ResolvedSubnet[];
  readonly multus: readonly { readonly subnets: readonly ResolvedSubnet[] }[];
}): string[] {
  const zones = new Set(resolved.subnets.map((s) => s.zone));
  for (const m of resolved.multus) {
    const own = new Set(m.subnets.map((s) => s.zone));
    for (const zone of zones) if (!own.has(zone)) zones.delete(zone);
  }
  return [...zones].sort();
}

/** The subnet with the most free addresses in `zone` (ties: lowest id). */
export function pickSubnet(subnets: readonly ResolvedSubnet[], zone: string): ResolvedSubnet | undefined {
  return subnets
    .filter((s) => s.zone === zone)
    .sort((a, b) => b.availableIps - a.availableIps || (a.subnetId < b.subnetId ? -1 : 1))[0];
}

/**
 * {@link launchZones} with each zone's ID, from the subnets (Karpenter reads a zone's
 * `topology.k8s.aws/zone-id` from its subnets' `AvailabilityZoneId`).
 */
export function launchZonesWithIds(resolved: {
  readonly subnets: readonly ResolvedSubnet[];
  readonly multus: readonly { readonly subnets: readonly ResolvedSubnet[] }[];
}): { name: string; id?: string }[] {
  return launchZones(resolved).map((name) => {
    const id = resolved.subnets.find((s) => s.zone === name && s.zoneId)?.zoneId;
    return id === undefined ? { name } : { name, id };
  });
}
