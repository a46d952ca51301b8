/** Capacity types Karpenter knows; `reserved` is capacity reservations (Karpenter v1.3+). */
export type CapacityType = 'spot' | 'on-demand' | 'reserved';

/** An offering: where and how an instance type can be bought, and its hourly price in USD. */
export interface Offering {
  readonly zone: string;
  readonly capacityType: CapacityType;
  readonly price: number;
}

export interface GpuInfo {
  readonly count: number;
  readonly manufacturer: string;
  readonly name: string;
  /** Memory per GPU in MiB. */
  readonly memoryMiB: number;
}

/** AWS Neuron accelerators (Inferentia, Trainium): devices, their name and NeuronCores per device. */
export interface AcceleratorInfo {
  /** Neuron devices; `aws.amazon.com/neuron` capacity. */
  readonly count: number;
  /** e.g. `Inferentia2`, `Trainium`. */
  readonly name: string;
  /** e.g. `AWS`. */
  readonly manufacturer: string;
  /** NeuronCores per device; with it, `aws.amazon.com/neuroncore` capacity = count x cores. */
  readonly coresPerDevice?: number;
}

/** One EC2 instance type of the catalog. */
export interface InstanceType {
  readonly name: string;
  readonly vcpu: number;
  readonly memoryMiB: number;
  readonly arch: 'amd64' | 'arm64';
  readonly gpus?: GpuInfo;
  /** Neuron accelerators (inf*, trn*). */
  readonly accelerators?: AcceleratorInfo;
  readonly maxEnis: number;
  readonly ipv4PerEni: number;
  /** Default 1. */
  readonly networkCards?: number;
  /**
   * EFA interfaces the type takes (EC2 `EfaInfo.MaximumEfaInterfaces`, at most one per network
   * card); absent when the type does not support EFA. Its `vpc.amazonaws.com/efa` capacity.
   */
  readonly maxEfaInterfaces?: number;
  /**
   * Total local NVMe instance storage as EC2 reports it (`TotalSizeInGB`, decimal gigabytes despite
   * the field name); absent or 0 when none.
   */
  readonly localNvmeGiB?: number;
  readonly networkBandwidthMbps?: number;
  /** Baseline EBS bandwidth (EBS-optimized), Mbps; the label is omitted when unset. */
  readonly ebsBandwidthMbps?: number;
  /** Default `nitro`. */
  readonly hypervisor?: 'nitro' | 'xen' | '';
  /** Default false. */
  readonly encryptionInTransit?: boolean;
  /** The processor's manufacturer as EC2 names it (`Intel`, `AMD`, `AWS`); absent when unknown. */
  readonly cpuManufacturer?: string;
  /** Sustained all-core clock speed in MHz (EC2's `SustainedClockSpeedInGhz` x 1000); absent when unknown. */
  readonly sustainedClockSpeedMhz?: number;
  readonly offerings: readonly Offering[];
  /**
   * Optional explicit overrides of the computed overhead (used by synthetic catalogs such as
   * Karpenter's benchmark): kube-reserved cpu in millicores and memory in MiB, max pods.
   */
  readonly overhead?: { readonly kubeReservedCpuMillis?: number; readonly kubeReservedMemoryMiB?: number };
  readonly maxPods?: number;
}

/** A catalog: the instance types of one region. */
export interface Catalog {
  readonly region: string;
  /** Free text: where the data came from and when. */
  readonly source?: string;
  readonly instanceTypes: readonly InstanceType[];
}

/** An offering as the scheduler sees it: `available` is false while the offering is marked unavailable (ICE). */
export interface ResolvedOffering extends Offering {
  readonly available: boolean;
  /**
   * The zone's ID (`usw2-az1`, `topology.k8s.aws/zone-id`), read from the subnets of the
   * NodeClass as Karpenter reads it; absent when they are not known (e.g. a plan from files).
   */
  readonly zoneId?: string;
  /** True when a NodeOverlay set this offering's price (see scheduling/node-overlays.ts). */
  readonly priceOverlaid?: boolean;
  /** A `reserved` offering's capacity reservation (see `reserved-offerings.ts`). */
  readonly reservationId?: string;
  readonly reservationType?: 'default' | 'capacity-block';
  /** Epoch ms the reservation ends, when it has an end. */
  readonly reservationEndTime?: number;
  /** A `reserved` offering's instances left in its reservation (when known). */
  readonly reservationInstances?: number;
}

/**
 * An instance type as a NodePool can launch it: its well-known node labels, its capacity and its
 * allocatable after kube-reserved / system-reserved / eviction / VM overhead and the max-pods
 * limit for the NodeClass (Multus ENIs subtracted), and its offerings. The scheduler only sees these.
 */
export interface ResolvedInstanceType {
  readonly name: string;
  /**
   * Labels every node of this type carries (`node.kubernetes.io/instance-type`, `kubernetes.io/arch`,
   * `kubernetes.io/os`, `topology.kubernetes.io/region`, `karpenter.k8s.aws/instance-*`). Zone and
   * capacity type come from the offering.
   */
  readonly labels: Readonly<Record<string, string>>;
  /** Raw capacity (cpu millicores, memory bytes, pods, ephemeral-storage bytes, extended resources). */
  readonly capacity: Readonly<Record<string, number>>;
  /** What pods can request: capacity minus overhead, pods = max pods. */
  readonly allocatable: Readonly<Record<string, number>>;
  readonly offerings: readonly ResolvedOffering[];
}
