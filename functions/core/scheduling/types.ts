/**
 * The scheduler's input and output: pending pods, the cluster as it is (existing nodes and in-flight
 * nodeclaims), the NodePools with the instance types they may launch, and the resulting plan.
 */

import type { ResolvedInstanceType } from '../model/instance-type.js';
import type {
  DaemonSet,
  PersistentVolume,
  PersistentVolumeClaim,
  Pod,
  StorageClass,
} from '../model/kube-objects.js';
import type { NodeClass } from '../model/node-class.js';
import type { NodePool } from '../model/node-pool.js';
import type { Requirement } from '../model/requirement.js';
import type { Resources } from '../model/resources.js';
import type { Taint } from '../model/taint.js';
import type { ImprovementLimits } from './work-budget.js';

/** A NodePool with its NodeClass and the instance types (with offerings) it may launch. */
export interface SchedulingPool {
  readonly pool: NodePool;
  readonly nodeClass?: NodeClass;
  readonly instanceTypes: readonly ResolvedInstanceType[];
  /** Why the pool can launch nothing (e.g. unknown nodeClassRef); such a pool places no pod. */
  readonly problem?: string;
}

/** A node that exists in the cluster, with the pods already bound to it. */
export interface ExistingNode {
  readonly name: string;
  readonly labels: Record<string, string>;
  readonly taints: readonly Taint[];
  readonly allocatable: Resources;
  /** Raw capacity, used for NodePool limits; allocatable when absent. */
  readonly capacity?: Resources;
  readonly pods: readonly Pod[];
  /** The NodePool that launched the node, if any (counts toward that pool's limits). */
  readonly nodePool?: string;
  /** Cordoned: no new pods, but its pods still count for topology. */
  readonly unschedulable?: boolean;
}

/** A nodeclaim that was launched but whose node has not registered yet. */
export interface InFlightClaim {
  readonly name: string;
  readonly nodePool: string;
  readonly labels: Record<string, string>;
  readonly requirements: readonly Requirement[];
  readonly taints: readonly Taint[];
  /** Allocatable of its smallest option. */
  readonly allocatable: Resources;
  /**
   * What it counts toward its pool's limits: the launched type's capacity, or the largest capacity
   * among its options while it may still launch any of them; `allocatable` when absent.
   */
  readonly capacity?: Resources;
  readonly pods: readonly Pod[];
}

/** Everything the scheduler looks at. */
export interface ScheduleInput {
  readonly pods: readonly Pod[];
  readonly nodes: readonly ExistingNode[];
  readonly inFlight: readonly InFlightClaim[];
  readonly daemonSets: readonly DaemonSet[];
  readonly persistentVolumes: readonly PersistentVolume[];
  readonly persistentVolumeClaims: readonly PersistentVolumeClaim[];
  /** StorageClasses: where claims not bound yet can be provisioned (`allowedTopologies`). */
  readonly storageClasses?: readonly StorageClass[];
  readonly pools: readonly SchedulingPool[];
  /** Cap on the ranked options (offerings) of each new nodeclaim. Default 60. */
  readonly maxInstanceTypeOptions?: number;
  /**
   * How a pod picks among the existing nodes that can take it: `first-fit` (default: fill nodes in
   * order, as joiner plans) or `least-allocated` (the node with the largest free share of cpu, the
   * kube-scheduler's default scoring; the simulated kube-scheduler uses it).
   */
  readonly existingNodeChoice?: 'first-fit' | 'least-allocated';
  /**
   * Judge existing nodes as the kube-scheduler does where it differs from Karpenter: a node without
   * the topology key of a required pod anti-affinity term is not repelled by it (Karpenter treats a
   * node it cannot place in a domain as not matching). The simulated kube-scheduler sets it.
   */
  readonly kubeSchedulerRules?: boolean;
  /** Skip the packing improvement pass (faster, Karpenter-like first-fit-decreasing only). */
  readonly skipImprovement?: boolean;
  /**
   * Limits on the packing improvement: `effort` scales its work budget (deterministic; default 1),
   * `now` and `deadline` (a clock in milliseconds the caller passes in, e.g. `performance.now`)
   * stop it early with the best plan found so far — the plan then depends on timing.
   */
  readonly improvementLimits?: ImprovementLimits;
}

/** One launchable choice for a new nodeclaim. */
export interface InstanceTypeOption {
  readonly instanceType: string;
  readonly zone: string;
  /** The zone's ID (`topology.k8s.aws/zone-id`), when the NodeClass's subnets gave it. */
  readonly zoneId?: string;
  /** `reserved`: launched into the capacity reservation `reservationId` (Karpenter v1.3+). */
  readonly capacityType: 'spot' | 'on-demand' | 'reserved';
  /** Hourly price in USD. */
  readonly price: number;
  /** True when a NodeOverlay set the price (the launch then asks EC2 for this order). */
  readonly priceOverlaid?: boolean;
  /** A reserved option's capacity reservation, its type and end (epoch ms, when it has one). */
  readonly reservationId?: string;
  readonly reservationType?: 'default' | 'capacity-block';
  readonly reservationEndTime?: number;
  /**
   * The instance type's values of the labels the claim's `minValues` requirements count (only
   * when it has such requirements), so that a launch retrying with fewer options can keep them.
   */
  readonly labels?: Readonly<Record<string, string>>;
}

/** A node joiner should launch, and the pods it is for. */
export interface PlannedNodeClaim {
  /** Deterministic: `<pool>-<n>`. */
  readonly name: string;
  readonly nodePool: string;
  /** `namespace/name` of the pods planned onto it. */
  readonly pods: readonly string[];
  readonly requirements: readonly Requirement[];
  readonly labels: Record<string, string>;
  readonly taints: readonly Taint[];
  readonly startupTaints: readonly Taint[];
  /**
   * Every offering of the claim's instance types in the zones and capacity types its requirements
   * allow (at most `maxInstanceTypeOptions`): the preferred capacity type (spot when allowed and
   * offered) first, then the other, each cheapest first (ties by type, then zone). The first is
   * the claim's price. Each fits all pods plus daemonset overhead and meets all requirements.
   */
  readonly instanceTypeOptions: readonly InstanceTypeOption[];
  /** Requests of the pods plus the daemonset overhead (for the cheapest option). */
  readonly requests: Resources;
}

/** Pods placed onto an existing node or an in-flight nodeclaim (by name). */
export interface ExistingPlacement {
  readonly node: string;
  readonly pods: readonly string[];
}

/** A pod the scheduler could not place, with a reason a person understands. */
export interface UnschedulablePod {
  readonly pod: string;
  readonly reason: string;
}

/** The scheduler's answer. */
export interface SchedulePlan {
  readonly nodeClaims: readonly PlannedNodeClaim[];
  readonly existingPlacements: readonly ExistingPlacement[];
  readonly unschedulable: readonly UnschedulablePod[];
}
