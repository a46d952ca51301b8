import { describe, expect, it } from 'vitest';
import { nodeClassDriftHash } from '../../../../functions/core/disruption/drift-hashes.js';
import type { ClusterConfig } from '../../../../functions/core/lifecycle/cluster-config.js';
import type { NodeClaim } from '../../../../functions/core/nodeclaim/nodeclaim.js';
import { mirroredStore } from '../../../../functions/core/status/mirrored-store.js';
import {
  type NodeClaimResource,
  nodeClaimResource,
} from '../../../../functions/core/status/nodeclaim-resource.js';
import { reportStatus } from '../../../../functions/core/status/report-status.js';
import { nodeClass, nodePool } from '../../../builders/config.js';
import { pendingClaim } from '../lifecycle/fakes.js';
import { FakeCluster, MemoryStore, RecordingLog } from '../provisioning/fakes.js';

const NOW = Date.UTC(2026, 5, 1);
const clock = { now: () => NOW };
const config: ClusterConfig = {
  nodePools: [nodePool()],
  nodeClasses: [nodeClass()],
  nodePoolNames: new Set(['default']),
};
const resolution = {
  imageIds: ['ami-1'],
  subnetIds: ['subnet-1'],
  securityGroupIds: ['sg-1'],
  zones: ['us-west-2a'],
};

function setup(resolve: () => Promise<typeof resolution> = async () => resolution) {
  const cluster = new FakeCluster();
  cluster.nodePoolDocs = [
    { apiVersion: 'karpenter.sh/v1', kind: 'NodePool', metadata: { name: 'default', uid: 'pool-uid' } },
  ];
  cluster.nodeClassDocs = [
    { apiVersion: 'karpenter.k8s.aws/v1', kind: 'EC2NodeClass', metadata: { name: 'default' } },
  ];
  const store = new MemoryStore();
  const log = new RecordingLog();
  const deps = {
    cluster,
    store,
    cloud: { resolveNodeClass: resolve },
    config: async () => config,
    clock,
    log,
  };
  return { cluster, store, log, deps };
}

describe('reportStatus (the sweep step)', () => {
  it('mirrors live claims, deletes resources without one, and rewrites nothing unchanged', async () => {
    const { cluster, store, deps } = setup();
    await store.createNodeClaim(pendingClaim('live', NOW));
    const gone = pendingClaim('gone', NOW);
    await store.createNodeClaim(gone);
    await store.updateNodeClaim({ ...(await store.getNodeClaim('gone'))!, state: 'Gone' } as NodeClaim);
    await cluster.applyNodeClaims([nodeClaimResource(gone)]);
    const first = await reportStatus(deps);
    expect([...cluster.nodeClaimResources.keys()]).toEqual(['live']);
    expect(cluster.nodeClaimResources.get('live')?.metadata.ownerReferences).toEqual([
      {
        apiVersion: 'karpenter.sh/v1',
        kind: 'NodePool',
        name: 'default',
        uid: 'pool-uid',
        blockOwnerDeletion: false,
      },
    ]);
    expect(first).toMatchObject({ nodeClaimsWritten: 1, nodeClaimsDeleted: 1, nodePools: 1, nodeClasses: 1 });
    const writes = cluster.statusWrites;
    expect(await reportStatus(deps)).toMatchObject({ nodeClaimsWritten: 0, nodeClaimsDeleted: 0 });
    expect(cluster.statusWrites).toBe(writes);
  });

  it('does not rewrite a resource the API server returns with its keys in another order', async () => {
    const { cluster, store, deps } = setup();
    await store.createNodeClaim(pendingClaim('live', NOW));
    expect(await reportStatus(deps)).toMatchObject({ nodeClaimsWritten: 1 });
    // A merge patch keeps the stored keys' order and appends new ones: the same status, reordered.
    const stored = cluster.nodeClaimResources.get('live')!;
    const reversed = Object.fromEntries(Object.entries(stored.status).reverse());
    cluster.nodeClaimResources.set('live', { ...stored, status: reversed as typeof stored.status });
    expect(await reportStatus(deps)).toMatchObject({ nodeClaimsWritten: 0 });
  });

  it('keeps the transition time of a condition whose status did not change', async () => {
    const { cluster, deps } = setup();
    await reportStatus(deps);
    const before = cluster.statuses.get('NodePool/default') as {
      conditions: { lastTransitionTime: string }[];
    };
    let now = NOW + 3_600_000;
    await reportStatus({
      ...deps,
      clock: { now: () => now },
      store: (() => {
        const s = new MemoryStore();
        void s.createNodeClaim(pendingClaim('new', now));
        return s;
      })(),
    });
    now += 1;
    const after = cluster.statuses.get('NodePool/default') as {
      resources: { nodes: string };
      conditions: { lastTransitionTime: string }[];
    };
    expect(after.resources.nodes).toBe('1');
    expect(after.conditions.map((c) => c.lastTransitionTime)).toEqual(
      before.conditions.map((c) => c.lastTransitionTime),
    );
  });

  it('writes NodeClass and NodePool status; a NodeClass that does not resolve makes its pools not Ready', async () => {
    const { cluster, deps } = setup(async () => {
      throw new Error('NodeClass default: subnetSelectorTerms match no subnet');
    });
    await reportStatus(deps);
    const nodeClassStatus = cluster.statuses.get('EC2NodeClass/default') as {
      conditions: { type: string; reason: string }[];
    };
    expect(nodeClassStatus.conditions.find((c) => c.type === 'Ready')?.reason).toBe('SubnetsNotFound');
    const poolStatus = cluster.statuses.get('NodePool/default') as {
      conditions: { type: string; status: string }[];
    };
    expect(poolStatus.conditions.find((c) => c.type === 'NodeClassReady')?.status).toBe('False');
  });

  it('writes LaunchSucceeded False on the pool whose latest claim AWS refused to launch', async () => {
    const { cluster, store, deps } = setup();
    const claim = pendingClaim('denied', NOW - 10_000);
    await store.createNodeClaim(claim);
    const message =
      'UnauthorizedOperation: the controller role may not ec2:CreateFleet on arn:aws:ec2:us-west-2:111111111111:spot-instances-request/*';
    await store.updateNodeClaim({
      ...(await store.getNodeClaim('denied'))!,
      state: 'Gone',
      timestamps: { Pending: NOW - 10_000, Gone: NOW - 5000 },
      failure: { reason: 'LaunchNotAuthorized', message },
    });
    await reportStatus(deps);
    const poolStatus = cluster.statuses.get('NodePool/default') as {
      conditions: { type: string; status: string; message: string }[];
    };
    expect(poolStatus.conditions.find((c) => c.type === 'LaunchSucceeded')).toMatchObject({
      status: 'False',
      message,
    });
  });

  it('EC2 terminating launches for a NodeClass cause: the EC2NodeClass keeps what it resolves but is not Ready, with the reason; so are its pools', async () => {
    const { cluster, store, deps } = setup();
    const claim = { ...pendingClaim('kms', NOW - 20_000), nodeClassHash: nodeClassDriftHash(nodeClass()) };
    await store.createNodeClaim(claim);
    const message = 'EC2 terminated instance i-0a during launch (Client.InvalidKMSKey.InvalidState: ...)';
    await store.updateNodeClaim({
      ...(await store.getNodeClaim('kms'))!,
      state: 'Gone',
      instance: {
        instanceId: 'i-0a',
        instanceType: 'm5.large',
        zone: 'us-west-2a',
        capacityType: 'on-demand',
      },
      timestamps: {
        Pending: NOW - 20_000,
        Launched: NOW - 18_000,
        Terminating: NOW - 15_000,
        Gone: NOW - 15_000,
      },
      failure: { reason: 'InvalidKMSKey', message },
    });
    await reportStatus(deps);
    const classStatus = cluster.statuses.get('EC2NodeClass/default') as {
      subnets?: unknown[];
      conditions: { type: string; status: string; reason: string; message: string }[];
    };
    expect(classStatus.subnets).toEqual([{ id: 'subnet-1' }]);
    expect(classStatus.conditions.find((c) => c.type === 'SubnetsReady')?.status).toBe('True');
    const ready = classStatus.conditions.find((c) => c.type === 'Ready');
    expect(ready).toMatchObject({ status: 'False', reason: 'InvalidKMSKey' });
    expect(ready?.message).toMatch(
      /^InvalidKMSKey \(1 launch failure\(s\) in a row; launches resume at .*\): EC2 terminated/,
    );
    const poolStatus = cluster.statuses.get('NodePool/default') as {
      conditions: { type: string; status: string; reason: string; message: string }[];
    };
    expect(poolStatus.conditions.find((c) => c.type === 'NodeClassReady')).toMatchObject({
      status: 'False',
      reason: 'InvalidKMSKey',
    });
    expect(poolStatus.conditions.find((c) => c.type === 'Ready')).toMatchObject({
      status: 'False',
      reason: 'NodeClassNotReady',
    });
  });

  it('never throws: a failing cluster is logged for the next sweep', async () => {
    const { cluster, log, deps } = setup();
    cluster.failing = new Error('connection refused');
    await expect(reportStatus(deps)).resolves.toMatchObject({ nodeClaimsWritten: 0 });
    expect(
      log.lines.some((l) => l.level === 'warn' && String(l.fields?.error).includes('connection refused')),
    ).toBe(true);
  });
});

describe('mirroredStore', () => {
  it('mirrors each claim it writes and deletes the resource once the claim is Gone', async () => {
    const { cluster, store, log } = setup();
    const mirrored = mirroredStore(store, () => cluster, clock, log);
    expect(await mirrored.createNodeClaim(pendingClaim('a', NOW))).toBe(true);
    expect(cluster.nodeClaimResources.get('a')?.status.state).toBe('Pending');
    const stored = await mirrored.updateNodeClaim({
      ...(await mirrored.getNodeClaim('a'))!,
      state: 'Launched',
    });
    expect(stored.state).toBe('Launched');
    expect(cluster.nodeClaimResources.get('a')?.status.state).toBe('Launched');
    await mirrored.updateNodeClaim({ ...stored, state: 'Gone' });
    expect(cluster.nodeClaimResources.has('a')).toBe(false);
  });

  it('does not send a write that would leave the resource as this store last wrote it', async () => {
    const { cluster, store, log } = setup();
    const applied: string[] = [];
    const apply = cluster.applyNodeClaims.bind(cluster);
    cluster.applyNodeClaims = async (resources: readonly NodeClaimResource[]) => {
      applied.push(...resources.map((r) => r.metadata.name));
      return apply(resources);
    };
    const mirrored = mirroredStore(store, () => cluster, clock, log);
    await mirrored.createNodeClaim(pendingClaim('a', NOW));
    const launched = await mirrored.updateNodeClaim({
      ...(await mirrored.getNodeClaim('a'))!,
      state: 'Launched',
    });
    expect(applied).toEqual(['a', 'a']);
    // A timer the resource does not show moves: nothing is sent.
    const moved = await mirrored.updateNodeClaim({
      ...launched,
      timers: { ...launched.timers, drainStep: NOW + 5_000 },
    });
    expect(applied).toEqual(['a', 'a']);
    expect((await store.getNodeClaim('a'))?.version).toBe(moved.version);
    // A change it shows is sent; so is the next write after a failed one.
    cluster.applyNodeClaims = async () => {
      throw new Error('API server down');
    };
    const registered = await mirrored.updateNodeClaim({ ...moved, state: 'Registered' });
    cluster.applyNodeClaims = async (resources: readonly NodeClaimResource[]) => {
      applied.push(...resources.map((r) => r.metadata.name));
      return apply(resources);
    };
    await mirrored.updateNodeClaim({
      ...registered,
      timers: { ...registered.timers, drainStep: NOW + 10_000 },
    });
    expect(applied).toEqual(['a', 'a', 'a']);
    expect(cluster.nodeClaimResources.get('a')?.status.state).toBe('Registered');
  });

  it('a failed mirror write never fails the store write', async () => {
    const { cluster, store, log } = setup();
    cluster.applyNodeClaims = async () => {
      throw new Error('API server down');
    };
    const mirrored = mirroredStore(store, () => cluster, clock, log);
    expect(await mirrored.createNodeClaim(pendingClaim('a', NOW))).toBe(true);
    expect(await store.getNodeClaim('a')).toBeDefined();
    expect(log.lines.some((l) => l.level === 'warn')).toBe(true);
  });
});
