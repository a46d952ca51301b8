import type { DocumentSource } from './node-pool.js';
import type { Taint } from './taint.js';

/** A selector term for subnets / security groups / capacity reservations. */
export interface SelectorTerm {
  readonly id?: string;
  readonly name?: string;
  /** Tag filters; the value `*` matches any value. */
  readonly tags?: Readonly<Record<string, string>>;
  readonly ownerId?: string;
  readonly instanceMatchCriteria?: string;
}

/** An AMI selector term (Karpenter v1). */
export interface AmiSelectorTerm {
  /** `family@version`, e.g. `al2023@latest`, `bottlerocket@v1.20.0`. */
  readonly alias?: string;
  readonly id?: string;
  readonly name?: string;
  readonly owner?: string;
  readonly tags?: Readonly<Record<string, string>>;
  readonly ssmParameter?: string;
}

export type AmiFamily =
  | 'AL2'
  | 'AL2023'
  | 'Bottlerocket'
  | 'Windows2019'
  | 'Windows2022'
  | 'Windows2025'
  | 'Custom';

export interface BlockDeviceMapping {
  readonly deviceName: string;
  readonly rootVolume?: boolean;
  readonly ebs?: {
    readonly volumeSize?: string;
    readonly volumeType?: string;
    readonly iops?: number;
    readonly throughput?: number;
    readonly encrypted?: boolean;
    readonly kmsKeyID?: string;
    readonly deleteOnTermination?: boolean;
    readonly snapshotID?: string;
    /** MiB/s a volume created from `snapshotID` is initialized at (EC2 `VolumeInitializationRate`). */
    readonly volumeInitializationRate?: number;
  };
}

export interface MetadataOptions {
  readonly httpEndpoint: 'enabled' | 'disabled';
  readonly httpProtocolIPv6: 'enabled' | 'disabled';
  readonly httpPutResponseHopLimit: number;
  readonly httpTokens: 'required' | 'optional';
}

/** Kubelet settings that change allocatable or the node's configuration. Quantities stay strings. */
export interface KubeletConfiguration {
  readonly maxPods?: number;
  readonly podsPerCore?: number;
  readonly systemReserved?: Readonly<Record<string, string>>;
  readonly kubeReserved?: Readonly<Record<string, string>>;
  readonly evictionHard?: Readonly<Record<string, string>>;
  readonly evictionSoft?: Readonly<Record<string, string>>;
  readonly evictionSoftGracePeriod?: Readonly<Record<string, string>>;
  readonly evictionMaxPodGracePeriod?: number;
  readonly imageGCHighThresholdPercent?: number;
  readonly imageGCLowThresholdPercent?: number;
  readonly cpuCFSQuota?: boolean;
  readonly clusterDNS?: readonly string[];
}

/** joiner's Multus extension: one extra ENI per entry, attached at launch. */
export interface MultusInterface {
  readonly subnetSelectorTerms: readonly SelectorTerm[];
  readonly securityGroupSelectorTerms: readonly SelectorTerm[];
  readonly deviceIndex: number;
  /** Default 0. */
  readonly networkCardIndex: number;
  /** Default true. */
  readonly disableSourceDestCheck: boolean;
  /** Default 0. */
  readonly ipv6AddressCount: number;
}

/**
 * joiner's internal NodeClass (from karpenter.k8s.aws v1/v1beta1 EC2NodeClass, a v1alpha5
 * `provider` block, or joiner.sh/v1 NodeClass), defaults applied.
 */
export interface NodeClass {
  readonly name: string;
  readonly source: DocumentSource;
  readonly amiFamily?: AmiFamily;
  readonly amiSelectorTerms: readonly AmiSelectorTerm[];
  readonly subnetSelectorTerms: readonly SelectorTerm[];
  readonly securityGroupSelectorTerms: readonly SelectorTerm[];
  readonly capacityReservationSelectorTerms: readonly SelectorTerm[];
  readonly role?: string;
  readonly instanceProfile?: string;
  readonly userData?: string;
  readonly tags: Readonly<Record<string, string>>;
  readonly blockDeviceMappings: readonly BlockDeviceMapping[];
  readonly instanceStorePolicy?: 'RAID0';
  /** Default: IMDSv2 required, hop limit 1, endpoint enabled, IPv6 disabled. */
  readonly metadataOptions: MetadataOptions;
  readonly kubelet: KubeletConfiguration;
  readonly associatePublicIPAddress?: boolean;
  /** Default false. */
  readonly detailedMonitoring: boolean;
  /** Extra ENIs for Multus, attached at launch. Empty when not used. */
  readonly multusInterfaces: readonly MultusInterface[];
  /** Startup taint joiner itself clears when the Multus daemonset pod on the node is Ready. */
  readonly multusReadyTaint?: Taint;
}
