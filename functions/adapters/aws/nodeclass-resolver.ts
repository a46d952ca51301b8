import { allImageIds } from '../../core/launch/ami-variant.js';
import type { ClusterInfo } from '../../core/launch/cluster-info.js';
import { launchZones, type ResolvedNodeClass } from '../../core/launch/launch-context.js';
import type { AmiSelectorTerm, NodeClass, SelectorTerm } from '../../core/model/node-class.js';
import type { NodeClassResolution } from '../../core/ports/cloud-provider.js';
import type { AmiProvider } from './ami-provider.js';
import type { InstanceProfileProvider } from './instance-profile-provider.js';
import type { SecurityGroupProvider } from './security-group-provider.js';
import type { SubnetProvider } from './subnet-provider.js';

/** The providers a NodeClass is resolved with. */
export interface NodeClassProviders {
  readonly subnets: SubnetProvider;
  readonly securityGroups: SecurityGroupProvider;
  readonly amis: AmiProvider;
  readonly instanceProfiles: InstanceProfileProvider;
}

/** What a NodeClass's own selector terms select: subnets, security groups, images. */
async function resolveSelectors(
  providers: Pick<NodeClassProviders, 'subnets' | 'securityGroups' | 'amis'>,
  cluster: Pick<ClusterInfo, 'name'>,
  nodeClass: NodeClass,
) {
  const where = `NodeClass ${nodeClass.name}`;
  const [subnets, securityGroupIds, images] = await Promise.all([
    providers.subnets.resolve(
      orClusterDefault(nodeClass.subnetSelectorTerms, cluster),
      `${where} subnetSelectorTerms`,
    ),
    providers.securityGroups.resolve(
      orClusterDefault(nodeClass.securityGroupSelectorTerms, cluster),
      `${where} securityGroupSelectorTerms`,
    ),
    providers.amis.resolve(amiTerms(nodeClass), `${where} amiSelectorTerms`),
  ]);
  if (subnets.length === 0) throw new Error(`${where}: subnetSelectorTerms match no subnet`);
  if (securityGroupIds.length === 0)
    throw new Error(`${where}: securityGroupSelectorTerms match no security group`);
  return { subnets, securityGroupIds, images };
}

/** Resolves a NodeClass's subnets, security groups, AMIs, instance profile and Multus interfaces. */
export async function resolveNodeClass(
  providers: NodeClassProviders,
  cluster: ClusterInfo,
  nodeClass: NodeClass,
): Promise<ResolvedNodeClass> {
  const where = `NodeClass ${nodeClass.name}`;
  const [own, multus, instanceProfile] = await Promise.all([
    resolveSelectors(providers, cluster, nodeClass),
    Promise.all(
      nodeClass.multusInterfaces.map(async (m, i) => ({
        subnets: await providers.subnets.resolve(
          m.subnetSelectorTerms,
          `${where} multusInterfaces[${i}].subnetSelectorTerms`,
        ),
        securityGroupIds: await providers.securityGroups.resolve(
          m.securityGroupSelectorTerms,
          `${where} multusInterfaces[${i}].securityGroupSelectorTerms`,
        ),
      })),
    ),
    providers.instanceProfiles.resolve(nodeClass),
  ]);
  return {
    cluster,
    images: own.images.images,
    ...(own.images.variantImages ? { variantImages: own.images.variantImages } : {}),
    instanceProfile,
    subnets: own.subnets,
    securityGroupIds: own.securityGroupIds,
    multus,
  };
}

/**
 * What a NodeClass's selector terms select now, for drift checks: the image of every
 * architecture and AMI variant (so a new nvidia image drifts the GPU nodes), the subnets and the security groups. Goes through the same providers (and so the
 * same cache entries) as launches; rejects, as a launch would, when a selector matches nothing.
 */
export async function resolveNodeClassSelection(
  providers: Pick<NodeClassProviders, 'subnets' | 'securityGroups' | 'amis'>,
  clusterName: string,
  nodeClass: NodeClass,
): Promise<NodeClassResolution> {
  const where = `NodeClass ${nodeClass.name}`;
  const [{ subnets, securityGroupIds, images }, multus] = await Promise.all([
    resolveSelectors(providers, { name: clusterName }, nodeClass),
    Promise.all(
      nodeClass.multusInterfaces.map(async (m, i) => ({
        subnets: await providers.subnets.resolve(
          m.subnetSelectorTerms,
          `${where} multusInterfaces[${i}].subnetSelectorTerms`,
        ),
      })),
    ),
  ]);
  return {
    imageIds: allImageIds(images),
    images,
    subnetIds: subnets.map((s) => s.subnetId),
    securityGroupIds: [...securityGroupIds],
    zones: launchZones({ subnets, multus }),
  };
}

/**
 * The AMI selector terms of a NodeClass. Without terms (v1beta1 / v1alpha5 documents that only
 * name an amiFamily), the family's latest EKS-optimized AMI is used, as Karpenter does.
 */
export function amiTerms(nodeClass: NodeClass): readonly AmiSelectorTerm[] {
  if (nodeClass.amiSelectorTerms.length > 0) return nodeClass.amiSelectorTerms;
  const family = nodeClass.amiFamily;
  if (family === 'AL2' || family === 'AL2023' || family === 'Bottlerocket') {
    return [{ alias: `${family.toLowerCase()}@latest` }];
  }
  return [];
}

/**
 * Selector terms, or, when a document gives none (early v1alpha5 Provisioners), Karpenter's old
 * default: everything tagged `kubernetes.io/cluster/<cluster>`.
 */
export function orClusterDefault(
  terms: readonly SelectorTerm[],
  cluster: Pick<ClusterInfo, 'name'>,
): readonly SelectorTerm[] {
  return terms.length > 0 ? terms : [{ tags: { [`kubernetes.io/cluster/${cluster.name}`]: '*' } }];
}
