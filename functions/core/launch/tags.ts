/** Tag keys joiner puts on what it launches (instances, volumes, ENIs, fleets, launch templates). */
export const TAG = {
  /** Value: cluster name. The tag GC and the IAM conditions key on. */
  cluster: 'joiner.sh/cluster',
  nodePool: 'karpenter.sh/nodepool',
  nodeClaim: 'joiner.sh/nodeclaim',
  /** Value: the launching joiner's identity (its state table's name); its orphan GC keys on it. */
  owner: 'joiner.sh/owner',
  nodeClass: 'joiner.sh/nodeclass',
  nodeClassHash: 'joiner.sh/nodeclass-hash',
  /** Tells the VPC CNI to leave an ENI alone (set on Multus ENIs). */
  noManage: 'node.k8s.amazonaws.com/no_manage',
  name: 'Name',
} as const;

/** The Kubernetes cluster ownership tag. */
export function clusterOwnershipTag(clusterName: string): Record<string, string> {
  return { [`kubernetes.io/cluster/${clusterName}`]: 'owned' };
}

/** Tags every joiner resource of a nodeclaim carries (the nodeclass's own tags first). */
export function resourceTags(input: {
  clusterName: string;
  nodePool: string;
  nodeClass: string;
  nodeClaimId?: string;
  extra?: Readonly<Record<string, string>>;
}): Record<string, string> {
  return {
    ...input.extra,
    ...clusterOwnershipTag(input.clusterName),
    [TAG.cluster]: input.clusterName,
    [TAG.nodePool]: input.nodePool,
    [TAG.nodeClass]: input.nodeClass,
    ...(input.nodeClaimId ? { [TAG.nodeClaim]: input.nodeClaimId } : {}),
  };
}
