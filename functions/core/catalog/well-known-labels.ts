/** Label keys a node carries (Kubernetes well-known labels and Karpenter's AWS labels). */
export const LABEL_INSTANCE_TYPE = 'node.kubernetes.io/instance-type';
export const LABEL_ARCH = 'kubernetes.io/arch';
export const LABEL_OS = 'kubernetes.io/os';
export const LABEL_ZONE = 'topology.kubernetes.io/zone';
export const LABEL_REGION = 'topology.kubernetes.io/region';
/** Karpenter's zone-ID label (`usw2-az1`): from the offering, as the zone (see scheduling/zone-ids.ts). */
export const LABEL_ZONE_ID = 'topology.k8s.aws/zone-id';
export const LABEL_CAPACITY_TYPE = 'karpenter.sh/capacity-type';
export const LABEL_NODEPOOL = 'karpenter.sh/nodepool';

const AWS = 'karpenter.k8s.aws';
export const LABEL_INSTANCE_FAMILY = `${AWS}/instance-family`;
export const LABEL_INSTANCE_CATEGORY = `${AWS}/instance-category`;
export const LABEL_INSTANCE_GENERATION = `${AWS}/instance-generation`;
export const LABEL_INSTANCE_SIZE = `${AWS}/instance-size`;
export const LABEL_INSTANCE_CPU = `${AWS}/instance-cpu`;
export const LABEL_INSTANCE_MEMORY = `${AWS}/instance-memory`;
export const LABEL_INSTANCE_GPU_COUNT = `${AWS}/instance-gpu-count`;
export const LABEL_INSTANCE_GPU_NAME = `${AWS}/instance-gpu-name`;
export const LABEL_INSTANCE_GPU_MANUFACTURER = `${AWS}/instance-gpu-manufacturer`;
export const LABEL_INSTANCE_GPU_MEMORY = `${AWS}/instance-gpu-memory`;
export const LABEL_INSTANCE_ACCELERATOR_NAME = `${AWS}/instance-accelerator-name`;
export const LABEL_INSTANCE_ACCELERATOR_MANUFACTURER = `${AWS}/instance-accelerator-manufacturer`;
export const LABEL_INSTANCE_ACCELERATOR_COUNT = `${AWS}/instance-accelerator-count`;
export const LABEL_INSTANCE_NETWORK_BANDWIDTH = `${AWS}/instance-network-bandwidth`;
export const LABEL_INSTANCE_EBS_BANDWIDTH = `${AWS}/instance-ebs-bandwidth`;
export const LABEL_INSTANCE_LOCAL_NVME = `${AWS}/instance-local-nvme`;
export const LABEL_INSTANCE_HYPERVISOR = `${AWS}/instance-hypervisor`;
export const LABEL_INSTANCE_ENCRYPTION_IN_TRANSIT = `${AWS}/instance-encryption-in-transit-supported`;
export const LABEL_INSTANCE_CPU_MANUFACTURER = `${AWS}/instance-cpu-manufacturer`;
export const LABEL_INSTANCE_CPU_SUSTAINED_CLOCK_SPEED = `${AWS}/instance-cpu-sustained-clock-speed-mhz`;
export const LABEL_INSTANCE_TENANCY = `${AWS}/instance-tenancy`;

/** The tenancy joiner launches (shared hardware); `dedicated` is refused at validate. */
export const DEFAULT_TENANCY = 'default';

/**
 * Every label key joiner derives from the instance type (and its offering: zone, capacity type).
 * A requirement, NodePool label or pod selector on one of these is matched against the instance
 * type's value — a type without the label matches only `NotIn` / `DoesNotExist` — and never becomes
 * a custom label of the node.
 */
export const INSTANCE_TYPE_LABEL_KEYS: ReadonlySet<string> = new Set([
  LABEL_INSTANCE_TYPE,
  LABEL_ARCH,
  LABEL_OS,
  LABEL_REGION,
  LABEL_INSTANCE_FAMILY,
  LABEL_INSTANCE_CATEGORY,
  LABEL_INSTANCE_GENERATION,
  LABEL_INSTANCE_SIZE,
  LABEL_INSTANCE_CPU,
  LABEL_INSTANCE_CPU_MANUFACTURER,
  LABEL_INSTANCE_CPU_SUSTAINED_CLOCK_SPEED,
  LABEL_INSTANCE_MEMORY,
  LABEL_INSTANCE_TENANCY,
  LABEL_INSTANCE_GPU_COUNT,
  LABEL_INSTANCE_GPU_NAME,
  LABEL_INSTANCE_GPU_MANUFACTURER,
  LABEL_INSTANCE_GPU_MEMORY,
  LABEL_INSTANCE_ACCELERATOR_NAME,
  LABEL_INSTANCE_ACCELERATOR_MANUFACTURER,
  LABEL_INSTANCE_ACCELERATOR_COUNT,
  LABEL_INSTANCE_NETWORK_BANDWIDTH,
  LABEL_INSTANCE_EBS_BANDWIDTH,
  LABEL_INSTANCE_LOCAL_NVME,
  LABEL_INSTANCE_HYPERVISOR,
  LABEL_INSTANCE_ENCRYPTION_IN_TRANSIT,
]);
