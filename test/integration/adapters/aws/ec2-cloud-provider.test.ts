import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DescribeLaunchTemplatesCommand, EC2Client } from '@aws-sdk/client-ec2';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createCloudProvider } from '../../../../functions/adapters/aws/create-cloud-provider.js';
import type { Ec2CloudProvider } from '../../../../functions/adapters/aws/ec2-cloud-provider.js';
import { createStateStore } from '../../../../functions/adapters/store/create-state-store.js';
import type { DynamoStateStore } from '../../../../functions/adapters/store/dynamo-state-store.js';
import { ensureTable } from '../../../../functions/adapters/store/ensure-table.js';
import { type LaunchConfig, launchNodeClaim } from '../../../../functions/core/launch/launch-nodeclaim.js';
import type { NodeClass } from '../../../../functions/core/model/node-class.js';
import type { NodeClaim, NodeClaimOption } from '../../../../functions/core/nodeclaim/nodeclaim.js';
import { SeededRandom, VirtualClock } from '../../../../functions/simulator/clock.js';
import { type Ec2Simulator, startEc2Simulator } from '../../../../functions/simulator/ec2/ec2-simulator.js';
import { defaultTopology } from '../../../../functions/simulator/ec2/topology.js';
import { FaultInjector } from '../../../../functions/simulator/faults.js';
import { parseUserData } from '../../../../functions/simulator/kube/kubelet/user-data.js';
import { type SsmSimulator, startSsmSimulator } from '../../../../functions/simulator/ssm/ssm-simulator.js';
import { nodeClass, nodePool } from '../../../builders/config.js';
import { testCatalog } from '../../simulator/ec2/test-catalog.js';
import { startDynalite } from '../store/dynalite-server.js';
import { multusClaim, offer } from './launch-fixtures.js';

const CLUSTER = 'eks-karpenterwithmultus';
const credentials = { accessKeyId: 'AKIDTEST', secretAccessKey: 'secret' };
const cluster = {
  name: CLUSTER,
  endpoint: 'https://api.sim',
  certificateAuthority: 'Q0E=',
  serviceCidr: '10.100.0.0/16',
};

let clock: VirtualClock;
let faults: FaultInjector;
let ec2Sim: Ec2Simulator;
let ssmSim: SsmSimulator;
let dynalite: Awaited<ReturnType<typeof startDynalite>>;
let ec2: EC2Client;
let cloud: Ec2CloudProvider;
let store: DynamoStateStore;
let tables = 0;

const multusClass: NodeClass = nodeClass({
  // The stack's node role profile (NodeClass roles are covered in instance-profiles.test.ts).
  role: undefined,
  subnetSelectorTerms: [{ tags: { 'karpenter.sh/discovery': CLUSTER } }],
  securityGroupSelectorTerms: [{ tags: { 'karpenter.sh/discovery': CLUSTER } }],
  multusInterfaces: [1, 2].map((n) => ({
    subnetSelectorTerms: [{ tags: { 'multus/interface': String(n) } }],
    securityGroupSelectorTerms: [{ name: 'Vpc1SecurityGroup' }],
    deviceIndex: n,
    networkCardIndex: 0,
    disableSourceDestCheck: n === 1,
    ipv6AddressCount: 0,
  })),
  multusReadyTaint: { key: 'joiner.sh/multus-not-ready', value: 'true', effect: 'NoSchedule' },
});

const config: LaunchConfig = {
  nodePool: nodePool({ name: 'multus' }),
  nodeClass: multusClass,
  instanceFacts: (t) => {
    const type = testCatalog.instanceTypes.find((x) => x.name === t);
    return type ? { arch: type.arch, maxPods: type.vcpu >= 8 ? 29 : 17 } : undefined;
  },
};

const pendingClaim = (id: string, options: NodeClaimOption[]): NodeClaim =>
  multusClaim(id, options, clock.now());

/** The provider of these tests; each call builds a fresh one (empty caches). */
const providerOf = () =>
  createCloudProvider({
    region: 'us-west-2',
    ec2Endpoint: ec2Sim.url,
    ssmEndpoint: ssmSim.url,
    credentials,
    cluster,
    kubernetesVersion: '1.30',
    defaultInstanceProfile: 'joiner-node',
    now: () => clock.now(),
  });

async function created(claim: NodeClaim): Promise<NodeClaim> {
  expect(await store.createNodeClaim(claim)).toBe(true);
  return (await store.getNodeClaim(claim.id))!;
}

beforeAll(async () => {
  clock = new VirtualClock();
  const random = new SeededRandom(7);
  faults = new FaultInjector(random);
  ec2Sim = await startEc2Simulator({
    clock,
    random,
    catalog: testCatalog,
    topology: defaultTopology(CLUSTER, 'us-west-2'),
    faults,
  });
  ssmSim = await startSsmSimulator({ region: 'us-west-2' });
  dynalite = await startDynalite();
  ec2 = new EC2Client({ endpoint: ec2Sim.url, region: 'us-west-2', credentials });
  cloud = providerOf();
});

afterAll(async () => {
  ec2.destroy();
  await Promise.all([ec2Sim.close(), ssmSim.close(), dynalite.close()]);
});

afterEach(async () => {
  faults.clear();
  const ddb = new DynamoDBClient({ region: 'us-east-1', endpoint: dynalite.endpoint, credentials });
  const tableName = `launch-${++tables}`;
  await ensureTable(ddb, tableName);
  ddb.destroy();
  store = createStateStore({ tableName, endpoint: dynalite.endpoint, credentials });
});

describe('EC2 cloud provider against the simulated EC2', () => {
  beforeAll(async () => {
    const ddb = new DynamoDBClient({ region: 'us-east-1', endpoint: dynalite.endpoint, credentials });
    await ensureTable(ddb, 'launch-0');
    ddb.destroy();
    store = createStateStore({ tableName: 'launch-0', endpoint: dynalite.endpoint, credentials });
  });

  it('launches a Multus node: per-zone Multus ENIs, no_manage tag, source/dest check, user data', async () => {
    const claim = await created(
      pendingClaim('multus-a', [
        offer('c6i.2xlarge', 'us-west-2b', 'spot'),
        offer('c6i.2xlarge', 'us-west-2a', 'spot'),
      ]),
    );
    const result = await launchNodeClaim({ cloud, store, clock }, config, claim);
    expect(result.outcome).toBe('launched');
    if (result.outcome !== 'launched') return;
    expect(result.claim.state).toBe('Launched');
    const id = result.claim.instance!.instanceId;
    const instance = ec2Sim.state.instances.get(id)!;
    expect(instance.instanceType).toBe('c6i.2xlarge');
    expect(instance.tags).toMatchObject({
      'joiner.sh/nodeclaim': 'multus-a',
      'joiner.sh/cluster': CLUSTER,
      'karpenter.sh/nodepool': 'multus',
    });
    const enis = [...instance.networkInterfaces].sort((a, b) => a.deviceIndex - b.deviceIndex);
    expect(enis.map((e) => e.deviceIndex)).toEqual([0, 1, 2]);
    const subnets = ec2Sim.state.topology.subnets;
    const zoneOf = (subnetId: string) => subnets.find((s) => s.subnetId === subnetId)!;
    for (const [i, eni] of enis.entries()) {
      expect(zoneOf(eni.subnetId).availabilityZone).toBe(instance.availabilityZone);
      expect(eni.deleteOnTermination).toBe(true);
      expect(eni.tags['joiner.sh/nodeclaim']).toBe('multus-a');
      if (i > 0) {
        expect(zoneOf(eni.subnetId).tags['multus/interface']).toBe(String(i));
        expect(eni.tags['node.k8s.amazonaws.com/no_manage']).toBe('true');
      } else {
        expect(eni.tags['node.k8s.amazonaws.com/no_manage']).toBeUndefined();
      }
    }
    expect(enis.map((e) => e.sourceDestCheck)).toEqual([true, false, true]);
    const boot = parseUserData(instance.userData);
    expect(boot).toMatchObject({ format: 'AL2023', clusterName: CLUSTER, maxPods: 29 });
    expect(boot.labels).toMatchObject({
      'karpenter-node': 'true',
      'karpenter.sh/nodepool': 'multus',
      'karpenter.sh/capacity-type': 'spot',
    });
    expect(boot.taints).toContainEqual({
      key: 'joiner.sh/multus-not-ready',
      value: 'true',
      effect: 'NoSchedule',
    });
    expect(await cloud.findByNodeClaim('multus-a')).toMatchObject({
      instanceId: id,
      nodeClaimId: 'multus-a',
    });
  });

  it('reuses launch templates by name across claims', async () => {
    const before = (await ec2.send(new DescribeLaunchTemplatesCommand({}))).LaunchTemplates?.length ?? 0;
    const claim = await created(pendingClaim('multus-b', [offer('c6i.2xlarge', 'us-west-2a', 'spot')]));
    expect((await launchNodeClaim({ cloud, store, clock }, config, claim)).outcome).toBe('launched');
    const after = (await ec2.send(new DescribeLaunchTemplatesCommand({}))).LaunchTemplates?.length ?? 0;
    expect(after).toBe(before);
  });

  it('prepare creates the launch templates of an attempt without launching; the launch then creates none', async () => {
    const claim = await created(pendingClaim('multus-p', [offer('m6g.xlarge', 'us-west-2c', 'on-demand')]));
    const templates = () => ec2Sim.state.launchTemplates.size;
    const instances = ec2Sim.state.instances.size;
    const before = templates();
    await cloud.prepare({ claim, ...config, options: claim.options, capacityType: 'on-demand' });
    expect(templates()).toBe(before + 1);
    expect(ec2Sim.state.instances.size).toBe(instances);
    expect((await launchNodeClaim({ cloud, store, clock }, config, claim)).outcome).toBe('launched');
    expect(templates()).toBe(before + 1);
  });

  it('marks ICE pools unavailable for the next invocation and falls back to on-demand', async () => {
    ec2Sim.setPoolCapacity('m5.large', 'us-west-2a', 'spot', 0);
    ec2Sim.setPoolCapacity('m5.large', 'us-west-2b', 'spot', 0);
    const claim = await created(
      pendingClaim('multus-c', [
        offer('m5.large', 'us-west-2a', 'spot'),
        offer('m5.large', 'us-west-2b', 'spot'),
        offer('m5.large', 'us-west-2a', 'on-demand'),
      ]),
    );
    const result = await launchNodeClaim({ cloud, store, clock }, config, claim);
    expect(result.outcome).toBe('launched');
    if (result.outcome !== 'launched') return;
    expect(result.claim.instance).toMatchObject({
      instanceType: 'm5.large',
      zone: 'us-west-2a',
      capacityType: 'on-demand',
    });
    const marks = await store.listUnavailableOfferings(clock.now());
    expect(marks.map((m) => `${m.zone}|${m.capacityType}|${m.reason}`).sort()).toEqual([
      'us-west-2a|spot|InsufficientInstanceCapacity',
      'us-west-2b|spot|InsufficientInstanceCapacity',
    ]);
    expect(await store.listUnavailableOfferings(clock.now() + 180_000)).toEqual([]);
  });

  it('adopts the instance of a crashed attempt instead of launching another', async () => {
    const claim = await created(pendingClaim('multus-d', [offer('m6g.large', 'us-west-2a', 'spot')]));
    const first = await launchNodeClaim({ cloud, store, clock }, config, claim);
    expect(first.outcome).toBe('launched');
    // The crash: the Launched write was lost, the stored claim still says Pending after one attempt.
    const stale = await store.updateNodeClaim({
      ...(await store.getNodeClaim('multus-d'))!,
      state: 'Pending',
      instance: undefined,
      launchAttempts: 1,
    });
    const count = ec2Sim.state.instances.size;
    const again = await launchNodeClaim({ cloud, store, clock }, config, stale);
    expect(again).toMatchObject({ outcome: 'launched', adopted: true });
    expect(ec2Sim.state.instances.size).toBe(count);
  });

  it('replays the crashed attempt with its ClientToken when the instance is not yet found by tag', async () => {
    const claim = await created(pendingClaim('multus-h', [offer('m6g.large', 'us-west-2b', 'spot')]));
    // The claim as it was written with its attempt recorded, right before CreateFleet was sent.
    let recorded: NodeClaim | undefined;
    const recording = Object.assign(Object.create(store), {
      updateNodeClaim: async (c: NodeClaim) => {
        const written = await store.updateNodeClaim(c);
        if (written.state === 'Pending') recorded = written;
        return written;
      },
    });
    const first = await launchNodeClaim({ cloud, store: recording, clock }, config, claim);
    expect(first.outcome).toBe('launched');
    // The crash: the Launched write was lost; the stored claim is the one that recorded the attempt.
    expect(recorded?.lastAttempt).toBeDefined();
    const stale = await store.updateNodeClaim({
      ...recorded!,
      version: (await store.getNodeClaim('multus-h'))!.version,
    });
    const count = ec2Sim.state.instances.size;
    // DescribeInstances by tag does not show the instance yet: the replay must not launch another.
    const blind = Object.assign(Object.create(cloud), { findByNodeClaim: async () => undefined });
    const again = await launchNodeClaim({ cloud: blind, store, clock }, config, stale);
    expect(again).toMatchObject({ outcome: 'launched' });
    if (again.outcome !== 'launched' || first.outcome !== 'launched') return;
    expect(again.claim.instance?.instanceId).toBe(first.claim.instance?.instanceId);
    expect(again.claim.launchAttempts).toBe(1);
    expect(ec2Sim.state.instances.size).toBe(count);
  });

  it('launches a claim once when two invocations race on it', async () => {
    const claim = await created(pendingClaim('multus-e', [offer('r5.large', 'us-west-2a', 'spot')]));
    const results = await Promise.all([
      launchNodeClaim({ cloud, store, clock }, config, claim),
      launchNodeClaim({ cloud, store, clock }, config, claim),
    ]);
    expect(results.map((r) => r.outcome).sort()).toEqual(['launched', 'skipped']);
    const tagged = [...ec2Sim.state.instances.values()].filter(
      (i) => i.tags['joiner.sh/nodeclaim'] === 'multus-e',
    );
    expect(tagged).toHaveLength(1);
  });

  it('fails the claim with a clear reason when the NodeClass selects nothing', async () => {
    const claim = await created(pendingClaim('multus-f', [offer('m5.large', 'us-west-2c', 'spot')]));
    const broken = {
      ...config,
      nodeClass: { ...multusClass, subnetSelectorTerms: [{ tags: { nothing: 'here' } }] },
    };
    const result = await launchNodeClaim({ cloud, store, clock }, broken, claim);
    expect(result.outcome).toBe('failed');
    if (result.outcome !== 'failed') return;
    expect(result.reason).toMatch(/subnetSelectorTerms match no subnet/);
    expect(result.claim.state).toBe('Gone');
    expect((await store.getNodeClaim(claim.id))?.state).toBe('Gone');
  });

  it('lists and terminates the cluster’s instances, tolerating ones already gone', async () => {
    const live = await cloud.list();
    expect(live.length).toBeGreaterThan(0);
    expect(live.every((i) => i.tags['joiner.sh/cluster'] === CLUSTER)).toBe(true);
    await cloud.terminate([live[0].instanceId]);
    await cloud.terminate([live[0].instanceId]);
    expect((await cloud.get(live[0].instanceId))?.state ?? 'terminated').toMatch(/shutting-down|terminated/);
  });

  it("prepareNodeClass gives each launch zone with its zone ID, from the subnets' AvailabilityZoneId", async () => {
    const zones = await providerOf().prepareNodeClass(multusClass);
    expect(zones).toEqual([
      { name: 'us-west-2a', id: 'usw2-az1' },
      { name: 'us-west-2b', id: 'usw2-az2' },
      { name: 'us-west-2c', id: 'usw2-az3' },
    ]);
  });

  it('prepareNodeClass resolves a NodeClass ahead: the launch after it needs no Describe call of it', async () => {
    const broken = { service: 'ec2', action: 'DescribeSubnets', error: 'UnauthorizedOperation' } as never;
    const prepared = providerOf();
    await prepared.prepareNodeClass(multusClass);
    faults.inject(broken);
    const claim = await created(
      pendingClaim('multus-warm-1', [offer('m5.xlarge', 'us-west-2b', 'on-demand')]),
    );
    expect((await launchNodeClaim({ cloud: prepared, store, clock }, config, claim)).outcome).toBe(
      'launched',
    );
    const other = await created(
      pendingClaim('multus-warm-2', [offer('m5.xlarge', 'us-west-2b', 'on-demand')]),
    );
    const result = await launchNodeClaim({ cloud: providerOf(), store, clock }, config, other);
    expect(result).toMatchObject({
      outcome: 'failed',
      reason: expect.stringMatching(/UnauthorizedOperation/),
    });
  });

  it('waits, on the injected clock, while DescribeInstances does not see the instance CreateFleet just launched', async () => {
    const waits: number[] = [];
    const patient = createCloudProvider({
      region: 'us-west-2',
      ec2Endpoint: ec2Sim.url,
      ssmEndpoint: ssmSim.url,
      credentials,
      cluster,
      kubernetesVersion: '1.30',
      defaultInstanceProfile: 'joiner-node',
      now: () => clock.now(),
      sleep: async (ms) => {
        waits.push(ms);
        await clock.advance(ms);
      },
    });
    faults.inject({
      service: 'ec2',
      action: 'DescribeInstances',
      error: 'InvalidInstanceID.NotFound',
      message: "The instance ID 'i-x' does not exist",
      times: 2,
    } as never);
    const claim = await created(pendingClaim('multus-ec', [offer('m5.xlarge', 'us-west-2a', 'spot')]));
    const result = await launchNodeClaim({ cloud: patient, store, clock }, config, claim);
    expect(result.outcome).toBe('launched');
    expect(waits).toEqual([200, 400]);
    const instance = ec2Sim.state.instances.get(
      result.outcome === 'launched' ? result.claim.instance!.instanceId : '',
    )!;
    // The steps after the Describe ran: ENIs tagged, Multus ENI no_manage.
    expect(instance.networkInterfaces.every((e) => e.tags['joiner.sh/nodeclaim'] === 'multus-ec')).toBe(true);
    expect(instance.networkInterfaces.filter((e) => e.tags['node.k8s.amazonaws.com/no_manage'])).toHaveLength(
      2,
    );
    // Volumes carry the cluster tag from creation (no CreateTags on them after the launch).
    expect(instance.blockDevices.every((v) => v.tags['joiner.sh/cluster'] === CLUSTER)).toBe(true);
  });

  it('fails the claim naming the permission when IAM denies CreateFleet, marking no offering unavailable', async () => {
    faults.inject({
      service: 'ec2',
      action: 'CreateFleet',
      error: 'UnauthorizedOperation',
      message:
        'You are not authorized to perform this operation. User: arn:aws:sts::111111111111:assumed-role/c/p is not authorized to perform: ec2:CreateFleet on resource: arn:aws:ec2:us-west-2:111111111111:spot-instances-request/* because no identity-based policy allows the ec2:CreateFleet action. Encoded authorization failure message: QUJD',
      httpStatus: 403,
    } as never);
    const claim = await created(pendingClaim('multus-denied', [offer('m5.xlarge', 'us-west-2a', 'spot')]));
    const result = await launchNodeClaim({ cloud: providerOf(), store, clock }, config, claim);
    expect(result).toMatchObject({ outcome: 'failed', marked: [] });
    expect((await store.getNodeClaim(claim.id))?.failure).toEqual({
      reason: 'LaunchNotAuthorized',
      message: expect.stringContaining(
        'ec2:CreateFleet on arn:aws:ec2:us-west-2:111111111111:spot-instances-request/*',
      ),
    });
    expect(await store.listUnavailableOfferings(clock.now())).toEqual([]);
  });

  it('retries through throttling', async () => {
    faults.inject({
      service: 'ec2',
      action: 'CreateFleet',
      error: 'RequestLimitExceeded',
      times: 2,
    } as never);
    const claim = await created(pendingClaim('multus-g', [offer('m5.xlarge', 'us-west-2a', 'spot')]));
    expect((await launchNodeClaim({ cloud, store, clock }, config, claim)).outcome).toBe('launched');
  });
});
