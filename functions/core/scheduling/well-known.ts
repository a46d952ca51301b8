/** Well-known label keys the scheduler treats specially. */

export const HOSTNAME = 'kubernetes.io/hostname';
export const ZONE = 'topology.kubernetes.io/zone';
export const CAPACITY_TYPE = 'karpenter.sh/capacity-type';
export const INSTANCE_TYPE = 'node.kubernetes.io/instance-type';
export const NODEPOOL = 'karpenter.sh/nodepool';
