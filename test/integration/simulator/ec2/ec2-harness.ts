import { EC2Client } from '@aws-sdk/client-ec2';
import type { Catalog } from '../../../../functions/core/model/instance-type.js';
import { SeededRandom, VirtualClock } from '../../../../functions/simulator/clock.js';
import type { CloudEvent } from '../../../../functions/simulator/ec2/context.js';
import {
  type Ec2Simulator,
  type Ec2SimulatorOptions,
  startEc2Simulator,
} from '../../../../functions/simulator/ec2/ec2-simulator.js';
import { defaultTopology, type VpcTopology } from '../../../../functions/simulator/ec2/topology.js';
import { FaultInjector } from '../../../../functions/simulator/faults.js';
import type { SimInstance } from '../../../../functions/simulator/instance.js';
import { testCatalog } from './test-catalog.js';

export interface Harness {
  readonly sim: Ec2Simulator;
  readonly ec2: EC2Client;
  readonly clock: VirtualClock;
  readonly faults: FaultInjector;
  readonly events: CloudEvent[];
  readonly running: SimInstance[];
  readonly terminated: SimInstance[];
  close(): Promise<void>;
}

/** A simulated EC2 for cluster `eks-karpenterwithmultus` and a real SDK client pointing at it. */
export async function startHarness(
  options: {
    maxAttempts?: number;
    topology?: VpcTopology;
    instanceProfileExists?: (ref: { arn?: string; name?: string }) => boolean;
    /** Access key id the SDK client signs with (default AKIDTEST). */
    accessKeyId?: string;
    /** The instance types the simulator serves (default the small test catalog). */
    catalog?: Catalog;
  } & Pick<
    Ec2SimulatorOptions,
    | 'iam'
    | 'instanceProfileOf'
    | 'spotServiceLinkedRole'
    | 'defaultEbsKmsKeyArn'
    | 'kmsKeys'
    | 'eventualConsistency'
  > = {},
): Promise<Harness> {
  const clock = new VirtualClock();
  const random = new SeededRandom(42);
  const faults = new FaultInjector(random);
  const events: CloudEvent[] = [];
  const running: SimInstance[] = [];
  const terminated: SimInstance[] = [];
  const sim = await startEc2Simulator({
    clock,
    random,
    catalog: options.catalog ?? testCatalog,
    topology: options.topology ?? defaultTopology('eks-karpenterwithmultus', 'us-west-2'),
    faults,
    instanceProfileExists: options.instanceProfileExists,
    instanceProfileOf: options.instanceProfileOf,
    iam: options.iam,
    spotServiceLinkedRole: options.spotServiceLinkedRole,
    defaultEbsKmsKeyArn: options.defaultEbsKmsKeyArn,
    kmsKeys: options.kmsKeys,
    eventualConsistency: options.eventualConsistency,
    emit: (event) => events.push(event),
    observer: { instanceRunning: (i) => running.push(i), instanceTerminated: (i) => terminated.push(i) },
  });
  const ec2 = new EC2Client({
    endpoint: sim.url,
    region: 'us-west-2',
    credentials: { accessKeyId: options.accessKeyId ?? 'AKIDTEST', secretAccessKey: 'secret' },
    maxAttempts: options.maxAttempts ?? 3,
  });
  return {
    sim,
    ec2,
    clock,
    faults,
    events,
    running,
    terminated,
    close: async () => {
      ec2.destroy();
      await sim.close();
    },
  };
}
