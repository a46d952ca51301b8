/**
 * The shape of the public facts about one EC2 instance family of joiner's bundled catalog: per size
 * vCPUs, memory (GiB), ENIs x IPv4 per ENI, baseline network bandwidth (Mbps), on-demand price,
 * local NVMe (GiB) and GPU or Neuron device count; per family the architecture, hypervisor,
 * encryption in transit, processor and the us-west-2 zones. Sources: the EC2 instance type
 * documentation (DescribeInstanceTypes), the VPC CNI ENI/IP limits and the EC2 on-demand Linux
 * price list. `generate-catalog.ts` turns the `families-*.ts` tables into the catalog JSON.
 */

/**
 * [size, vcpu, memory GiB, maxEnis, ipv4PerEni, bandwidth Mbps (0: EC2 publishes none), on-demand
 * USD/h, nvme GiB?, GPU or Neuron device count?].
 */
export type SizeRow = readonly [string, number, number, number, number, number, number, number?, number?];

/** One family's facts and its sizes. */
export interface FamilyFacts {
  readonly family: string;
  readonly arch: 'amd64' | 'arm64';
  readonly hypervisor: 'nitro' | 'xen';
  readonly encryptionInTransit: boolean;
  readonly zones: readonly string[];
  /** Spot discount typical of the family (0.3-0.7 below on-demand). */
  readonly spotDiscount: number;
  readonly gpu?: { readonly manufacturer: string; readonly name: string; readonly memoryMiB: number };
  /** Neuron accelerators (inf, trn): manufacturer, device name and NeuronCores per device. */
  readonly accelerator?: {
    readonly manufacturer: string;
    readonly name: string;
    readonly coresPerDevice: number;
  };
  /** Processor manufacturer as EC2 names it and sustained all-core clock speed (MHz). */
  readonly cpu: readonly [string, number];
  /** Sizes whose sustained all-core clock speed (MHz) differs from the family's. */
  readonly clock?: Readonly<Record<string, number>>;
  /** Sizes with more than one network card: their card count. */
  readonly networkCards?: Readonly<Record<string, number>>;
  /** Sizes that support EFA: their maximum EFA interfaces (EC2 `EfaInfo.MaximumEfaInterfaces`). */
  readonly efa?: Readonly<Record<string, number>>;
  readonly sizes: readonly SizeRow[];
}

/** The four us-west-2 zones. */
export const ALL: readonly string[] = ['a', 'b', 'c', 'd'];
/** The three older us-west-2 zones (previous-generation and accelerated types). */
export const ABC: readonly string[] = ['a', 'b', 'c'];
