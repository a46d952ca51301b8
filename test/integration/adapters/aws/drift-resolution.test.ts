import { EC2Client } from '@aws-sdk/client-ec2';
import { SSMClient } from '@aws-sdk/client-ssm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AmiProvider } from '../../../../functions/adapters/aws/ami-provider.js';
import { createEc2Api, type Ec2Api } from '../../../../functions/adapters/aws/ec2-api.js';
import { Ec2CloudProvider } from '../../../../functions/adapters/aws/ec2-cloud-provider.js';
import { InstanceProfileProvider } from '../../../../functions/adapters/aws/instance-profile-provider.js';
import { LaunchTemplateProvider } from '../../../../functions/adapters/aws/launch-template-provider.js';
import { SecurityGroupProvider } from '../../../../functions/adapters/aws/security-group-provider.js';
import { SubnetProvider } from '../../../../functions/adapters/aws/subnet-provider.js';
import { driftOf } from '../../../../functions/core/disruption/drift.js';
import {
  NODECLASS_HASH_VERSION,
  NODEPOOL_HASH_VERSION,
  nodeClassDriftHash,
  nodePoolDriftHash,
} from '../../../../functions/core/disruption/drift-hashes.js';
import type { NodeClass } from '../../../../functions/core/model/node-class.js';
import { newNodeClaim } from '../../../../functions/core/nodeclaim/create.js';
import type { NodeClaim } from '../../../../functions/core/nodeclaim/nodeclaim.js';
import type { CloudInstance } from '../../../../functions/core/ports/cloud-provider.js';
import { SeededRandom, VirtualClock } from '../../../../functions/simulator/clock.js';
import { type Ec2Simulator, startEc2Simulator } from '../../../../functions/simulator/ec2/ec2-simulator.js';
import { eksImages } from '../../../../functions/simulator/ec2/eks-images.js';
import { defaultTopology } from '../../../../functions/simulator/ec2/topology.js';
import { type SsmSimulator, startSsmSimulator } from '../../../../functions/simulator/ssm/ssm-simulator.js';
import { nodeClass, nodePool } from '../../../builders/config.js';
import { testCatalog } from '../../simulator/ec2/test-catalog.js';
import { offer } from './launch-fixtures.js';

const CLUSTER = 'drift-cluster';
const credentials = { accessKeyId: 'AKIDTEST', secretAccessKey: 'secret' };
const cluster = {
  name: CLUSTER,
  endpoint: 'https://api.sim',
  certificateAuthority: 'Q0E=',
  serviceCidr: '10.100.0.0/16',
};
const discovery = { tags: { 'karpenter.sh/discovery': CLUSTER } };
const klass: NodeClass = nodeClass({
  // The stack's node role profile (NodeClass roles are covered in instance-profiles.test.ts).
  role: undefined,
  subnetSelectorTerms: [discovery],
  securityGroupSelectorTerms: [discovery],
});
const pool = nodePool();
const imageNamed = (name: string) => eksImages().find((i) => i.name === name)!.imageId;

let clock: VirtualClock;
let ec2Sim: Ec2Simulator;
let ssmSim: SsmSimulator;
let ec2Client: EC2Client;
let ssm: SSMClient;
let cloud: Ec2CloudProvider;
/** Describe* and GetParameter calls made so far. */
const calls = { ec2: 0, ssm: 0 };

/** The EC2 API, counting the lookups a NodeClass resolution makes. */
function countingEc2(api: Ec2Api): Ec2Api {
  const counted =
    <A extends unknown[], R>(f: (...args: A) => Promise<R>) =>
    (...args: A): Promise<R> => {
      calls.ec2++;
      return f(...args);
    };
  return {
    ...api,
    describeSubnets: counted(api.describeSubnets),
    describeSecurityGroups: counted(api.describeSecurityGroups),
    describeImages: counted(api.describeImages),
  };
}

beforeAll(async () => {
  clock = new VirtualClock();
  ec2Sim = await startEc2Simulator({
    clock,
    random: new SeededRandom(11),
    catalog: testCatalog,
    topology: defaultTopology(CLUSTER, 'us-west-2'),
  });
  ssmSim = await startSsmSimulator({ region: 'us-west-2' });
  ec2Client = new EC2Client({ endpoint: ec2Sim.url, region: 'us-west-2', credentials });
  ssm = new SSMClient({ endpoint: ssmSim.url, region: 'us-west-2', credentials });
  const send = ssm.send.bind(ssm) as (command: unknown) => Promise<unknown>;
  (ssm as unknown as { send: (command: unknown) => Promise<unknown> }).send = (command) => {
    calls.ssm++;
    return send(command);
  };
  const raw = createEc2Api(ec2Client);
  const ec2 = countingEc2(raw);
  const now = () => clock.now();
  cloud = new Ec2CloudProvider({
    ec2,
    cluster,
    launchTemplates: new LaunchTemplateProvider(raw, now),
    providers: {
      subnets: new SubnetProvider(ec2, now),
      securityGroups: new SecurityGroupProvider(ec2, now),
      amis: new AmiProvider(ec2, ssm, '1.30', now),
      instanceProfiles: new InstanceProfileProvider({
        clusterName: cluster.name,
        region: 'us-west-2',
        defaultProfile: 'joiner-node',
      }),
    },
  });
});

afterAll(async () => {
  ec2Client.destroy();
  ssm.destroy();
  await Promise.all([ec2Sim.close(), ssmSim.close()]);
});

/** Launches one node of `klass` and returns its claim (hashes stamped) and instance as EC2 lists it. */
async function launchNode(): Promise<{ claim: NodeClaim; instance: CloudInstance }> {
  const pending = newNodeClaim(
    {
      id: 'default-drift',
      nodePool: pool.name,
      nodeClass: klass.name,
      nodePoolHash: nodePoolDriftHash(pool),
      nodePoolHashVersion: NODEPOOL_HASH_VERSION,
      nodeClassHash: nodeClassDriftHash(klass),
      nodeClassHashVersion: NODECLASS_HASH_VERSION,
      requirements: [],
      labels: {},
      taints: [],
      startupTaints: [],
      options: [offer('c6i.2xlarge', 'us-west-2a', 'on-demand')],
      pods: [],
      requests: {},
    },
    clock.now(),
  );
  const outcome = await cloud.launch({
    claim: pending,
    nodePool: pool,
    nodeClass: klass,
    options: pending.options,
    capacityType: 'on-demand',
    clientToken: `${pending.launchToken}-0`,
    instanceFacts: () => ({ arch: 'amd64', maxPods: 29 }),
  });
  if (!outcome.ok) throw new Error(`launch failed: ${JSON.stringify(outcome.errors)}`);
  const listed = (await cloud.list()).find((i) => i.instanceId === outcome.instance.instanceId);
  if (!listed) throw new Error('the launched instance is not listed');
  return { claim: { ...pending, state: 'Initialized', instance: outcome.instance }, instance: listed };
}

describe('drift against what the simulated EC2 resolves', () => {
  it('lists instances with their image, primary subnet and security groups', async () => {
    const { instance } = await launchNode();
    const simulated = ec2Sim.state.instances.get(instance.instanceId)!;
    expect(instance.imageId).toBe(imageNamed('amazon-eks-node-al2023-x86_64-standard-1.30-v20251001'));
    expect(instance.subnetId).toBe(simulated.subnetId);
    expect(instance.securityGroupIds).toEqual(simulated.securityGroupIds);
  });

  it('finds no drift for the same NodeClass, and resolving again within the TTL calls nothing', async () => {
    const { claim, instance } = await launchNode();
    const before = { ...calls };
    expect(before.ec2).toBeGreaterThan(0);
    expect(before.ssm).toBeGreaterThan(0);
    const resolved = await cloud.resolveNodeClass(klass);
    expect(calls).toEqual(before);
    expect(resolved.imageIds).toContain(instance.imageId);
    const nodeLabels = { 'node.kubernetes.io/instance-type': 'c6i.2xlarge' };
    expect(
      driftOf({ claim, nodeLabels, nodePool: pool, nodeClass: klass, instance, resolved }),
    ).toBeUndefined();
  });

  it('reports AMI drift once the AMI selector picks another image', async () => {
    const { claim, instance } = await launchNode();
    const older = imageNamed('amazon-eks-node-al2023-x86_64-standard-1.30-v20250901');
    const pinned: NodeClass = { ...klass, amiSelectorTerms: [{ id: older }] };
    const resolved = await cloud.resolveNodeClass(pinned);
    expect(resolved.imageIds).toEqual([older]);
    expect(driftOf({ claim, nodeLabels: {}, nodePool: pool, nodeClass: pinned, instance, resolved })).toEqual(
      {
        reason: 'AMIDrifted',
        message: `AMI ${instance.imageId} is no longer selected by EC2NodeClass "default" (now ${older})`,
      },
    );
  });

  it('reports security group and subnet drift when the selectors pick others', async () => {
    const { claim, instance } = await launchNode();
    const groups: NodeClass = { ...klass, securityGroupSelectorTerms: [{ name: 'Vpc1SecurityGroup' }] };
    const byGroups = await cloud.resolveNodeClass(groups);
    expect(
      driftOf({ claim, nodeLabels: {}, nodePool: pool, nodeClass: groups, instance, resolved: byGroups })
        ?.reason,
    ).toBe('SecurityGroupDrifted');
    const elsewhere = [...ec2Sim.state.subnets.keys()].find(
      (id) => id !== instance.subnetId && ec2Sim.state.subnets.get(id)?.spec.tags['karpenter.sh/discovery'],
    )!;
    const subnets: NodeClass = { ...klass, subnetSelectorTerms: [{ id: elsewhere }] };
    const bySubnets = await cloud.resolveNodeClass(subnets);
    expect(
      driftOf({ claim, nodeLabels: {}, nodePool: pool, nodeClass: subnets, instance, resolved: bySubnets }),
    ).toMatchObject({ reason: 'SubnetDrifted' });
  });

  it('rejects a NodeClass whose selector matches nothing, naming the field', async () => {
    const none: NodeClass = { ...klass, subnetSelectorTerms: [{ tags: { nothing: 'here' } }] };
    await expect(cloud.resolveNodeClass(none)).rejects.toThrow(/subnetSelectorTerms/);
  });
});
