/**
 * The contract between the simulated EC2 (which launches and terminates instances) and the
 * simulated kubelets of the simulated Kubernetes API server (which register them as Nodes).
 */

export interface SimNetworkInterface {
  readonly networkInterfaceId: string;
  readonly subnetId: string;
  readonly vpcId: string;
  readonly availabilityZone: string;
  readonly deviceIndex: number;
  readonly networkCardIndex: number;
  readonly securityGroupIds: readonly string[];
  readonly privateIpAddress: string;
  readonly ipv6Addresses: readonly string[];
  readonly deleteOnTermination: boolean;
  /** `interface` (ENA), `efa` (EFA with ENA) or `efa-only`; absent means `interface`. */
  readonly interfaceType?: string;
  sourceDestCheck: boolean;
  readonly tags: Readonly<Record<string, string>>;
}

export type SimInstanceState = 'pending' | 'running' | 'shutting-down' | 'terminated';

export interface SimInstance {
  readonly instanceId: string;
  readonly instanceType: string;
  readonly availabilityZone: string;
  readonly capacityType: 'spot' | 'on-demand';
  readonly imageId: string;
  /** The AMI's name (what the kubelet's drivers and the summary go by). */
  readonly imageName?: string;
  readonly launchTime: number;
  readonly privateDnsName: string;
  readonly privateIpAddress: string;
  /** Decoded user data (not base64). */
  readonly userData: string;
  readonly tags: Readonly<Record<string, string>>;
  readonly networkInterfaces: readonly SimNetworkInterface[];
  readonly launchTemplateId?: string;
  state: SimInstanceState;
}

/** What the simulated EC2 tells the simulated Kubernetes about instances. */
export interface InstanceObserver {
  /** The instance reached `running`: its kubelet starts booting. */
  instanceRunning(instance: SimInstance): void;
  /** The instance is shutting down / terminated: its node goes NotReady and is removed. */
  instanceTerminated(instance: SimInstance): void;
}
