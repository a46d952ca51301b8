/**
 * The parts of the EC2 and Pricing API answers the live catalog reads, as the AWS SDK returns
 * them (PascalCase members, every member optional). Declared here so the pure core converts them
 * without importing an SDK; the SDK's own types are assignable to these.
 */

/** One `InstanceTypeInfo` of DescribeInstanceTypes. */
export interface InstanceTypeInfoShape {
  readonly InstanceType?: string;
  readonly SupportedUsageClasses?: readonly string[];
  readonly SupportedVirtualizationTypes?: readonly string[];
  readonly BareMetal?: boolean;
  readonly Hypervisor?: string;
  readonly ProcessorInfo?: {
    readonly SupportedArchitectures?: readonly string[];
    readonly Manufacturer?: string;
    readonly SustainedClockSpeedInGhz?: number;
  };
  readonly VCpuInfo?: { readonly DefaultVCpus?: number };
  readonly MemoryInfo?: { readonly SizeInMiB?: number };
  readonly InstanceStorageSupported?: boolean;
  readonly InstanceStorageInfo?: { readonly TotalSizeInGB?: number; readonly NvmeSupport?: string };
  readonly EbsInfo?: { readonly EbsOptimizedInfo?: { readonly BaselineBandwidthInMbps?: number } };
  readonly NetworkInfo?: {
    readonly MaximumNetworkInterfaces?: number;
    readonly Ipv4AddressesPerInterface?: number;
    readonly MaximumNetworkCards?: number;
    readonly DefaultNetworkCardIndex?: number;
    readonly EncryptionInTransitSupported?: boolean;
    readonly EfaSupported?: boolean;
    readonly EfaInfo?: { readonly MaximumEfaInterfaces?: number };
    readonly NetworkCards?: readonly {
      readonly NetworkCardIndex?: number;
      readonly BaselineBandwidthInGbps?: number;
    }[];
  };
  readonly NeuronInfo?: {
    readonly NeuronDevices?: readonly {
      readonly Count?: number;
      readonly Name?: string;
      readonly CoreInfo?: { readonly Count?: number };
    }[];
  };
  readonly GpuInfo?: {
    readonly Gpus?: readonly {
      readonly Name?: string;
      readonly Manufacturer?: string;
      readonly Count?: number;
      readonly MemoryInfo?: { readonly SizeInMiB?: number };
    }[];
  };
}

/** One row of DescribeInstanceTypeOfferings (`LocationType` availability-zone). */
export interface InstanceTypeOfferingShape {
  readonly InstanceType?: string;
  readonly LocationType?: string;
  readonly Location?: string;
}

/** One zone of DescribeAvailabilityZones. */
export interface AvailabilityZoneShape {
  readonly ZoneName?: string;
  readonly ZoneId?: string;
  readonly ZoneType?: string;
  readonly State?: string;
  readonly RegionName?: string;
}

/** One row of DescribeSpotPriceHistory. */
export interface SpotPriceShape {
  readonly InstanceType?: string;
  readonly AvailabilityZone?: string;
  readonly SpotPrice?: string;
  readonly Timestamp?: Date;
  readonly ProductDescription?: string;
}

/** Something a source answered that the conversion could not use, and why. */
export interface SkippedEntry {
  /** Where: e.g. `DescribeInstanceTypes m5.large` or `GetProducts PriceList[3]`. */
  readonly at: string;
  readonly reason: string;
}
