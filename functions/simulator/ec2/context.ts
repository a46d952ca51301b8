/** What every action handler of the simulated EC2 works with. */
import type { SeededRandom, VirtualClock } from '../clock.js';
import type { InstanceObserver } from '../instance.js';
import type { Ec2Caller } from './authorization/ec2-caller.js';
import type { EventualConsistency } from './consistency/eventual-consistency.js';
import type { Ec2State } from './ec2-state.js';

/** A delay on the virtual clock: `baseMs` plus up to `jitterMs` drawn from the seeded random source. */
export interface Stage {
  readonly baseMs: number;
  readonly jitterMs: number;
}

/** Lifecycle timings of simulated instances. */
export interface Ec2Timings {
  /** pending -> running. */
  readonly pendingToRunning: Stage;
  /** shutting-down -> terminated. */
  readonly shuttingDownToTerminated: Stage;
  /** Spot interruption warning -> termination (two minutes in EC2). */
  readonly spotInterruptionNoticeMs: number;
  /** How long terminated instances stay visible in DescribeInstances. */
  readonly terminatedVisibleMs: number;
}

export const DEFAULT_EC2_TIMINGS: Ec2Timings = {
  pendingToRunning: { baseMs: 5_000, jitterMs: 5_000 },
  shuttingDownToTerminated: { baseMs: 20_000, jitterMs: 10_000 },
  spotInterruptionNoticeMs: 120_000,
  terminatedVisibleMs: 3_600_000,
};

/** An event for the EventBridge default bus. */
export interface CloudEvent {
  readonly source: string;
  readonly detailType: string;
  readonly detail: unknown;
  readonly resources: string[];
}

export interface Ec2Context {
  readonly state: Ec2State;
  readonly clock: VirtualClock;
  readonly random: SeededRandom;
  readonly region: string;
  readonly timings: Ec2Timings;
  readonly observer?: InstanceObserver;
  readonly emit?: (event: CloudEvent) => void;
  /** Whether IAM has the instance profile a launch names; without it every profile is accepted. */
  readonly instanceProfileExists?: (ref: InstanceProfileRef) => boolean;
  /**
   * The instance profile a launch names, as IAM has it (undefined: no such profile); its role is
   * what the launch must be allowed to `iam:PassRole`. Takes precedence over `instanceProfileExists`.
   */
  readonly instanceProfileOf?: (ref: InstanceProfileRef) => InstanceProfileInfo | undefined;
  /** The authenticated caller of the request being handled; undefined when IAM is not enforced. */
  readonly caller?: Ec2Caller;
  /** The account's default EBS encryption key (a customer-managed KMS key ARN), if any. */
  readonly defaultEbsKmsKeyArn?: string;
  /** Describe* visibility of just-created resources and tags; undefined: read-after-write. */
  readonly consistency?: EventualConsistency;
}

/** An instance profile as a launch names it. */
export interface InstanceProfileRef {
  readonly arn?: string;
  readonly name?: string;
}

/** An existing instance profile: its ARN and the ARN of its role (none when it has no role). */
export interface InstanceProfileInfo {
  readonly arn: string;
  readonly roleArn?: string;
}
