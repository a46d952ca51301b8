import { describe, expect, it } from 'vitest';
import type { NodeClaim } from '../../../../functions/core/nodeclaim/nodeclaim.js';
import type { LaunchInput } from '../../../../functions/core/ports/cloud-provider.js';
import { provision } from '../../../../functions/core/provisioning/provision.js';
import { node, pod } from '../../../builders/workloads.js';
import { harness } from './harness.js';
import { asPending, seedCluster } from './seed-cluster.js';

const SEED_004 = 'examples/seed-004';
const REGISTRATION_MS = 15 * 60_000;

describe('provision: seed 004 (two Provisioners, 1 add-on pod and 20 x 1 CPU pods)', () => {
  it('launches one on-demand m5.large for the add-on and 3 x c5.2xlarge spot (7/7/6), nominating every pod', async () => {
    const h = harness(await seedCluster(SEED_004));
    const result = await provision(h.deps, { hints: [] });
    expect(result).toMatchObject({ deferred: false, incomplete: false, pendingPods: 21, unschedulable: [] });
    expect(result.created).toHaveLength(4);
    const general = result.launched.filter((l) => l.nodePool === 'spot-general');
    expect(general.map((l) => [l.instanceType, l.capacityType])).toEqual([
      ['c5.2xlarge', 'spot'],
      ['c5.2xlarge', 'spot'],
      ['c5.2xlarge', 'spot'],
    ]);
    expect(general.map((l) => l.pods).sort()).toEqual([6, 7, 7]);
    const addon = result.launched.find((l) => l.nodePool === 'addons-ondemand');
    expect(addon).toMatchObject({ instanceType: 'm5.large', capacityType: 'on-demand', pods: 1 });
    expect(h.cloud.instances).toHaveLength(4);
    expect(result.nominated).toBe(21);
    const nominated = h.cluster.events.filter((e) => e.reason === 'Nominated');
    expect(nominated).toHaveLength(21);
    expect(nominated[0].message).toMatch(
      /^Pod should schedule on: nodeclaim\/(spot-general|addons-ondemand)-[0-9a-f]{10}$/,
    );
    expect(result.schedulingMs).toBeGreaterThan(0);
    expect(result.totalMs).toBeGreaterThanOrEqual(result.schedulingMs);
  });

  it('logs like Karpenter: found, computed packing, created and launched with instance details', async () => {
    const h = harness(await seedCluster(SEED_004));
    await provision(h.deps, { hints: [] });
    const messages = h.log.messages();
    expect(messages).toContain('found 21 provisionable pod(s)');
    expect(messages).toContain('computed packing of 4 node(s) for 21 pod(s)');
    expect(messages.filter((m) => m === 'created nodeclaim')).toHaveLength(4);
    const launched = h.log.lines.filter((l) => l.message === 'launched nodeclaim');
    expect(launched).toHaveLength(4);
    expect(launched[0].fields).toMatchObject({
      'instance-id': expect.stringMatching(/^i-/),
      'instance-type': expect.any(String),
      zone: expect.stringMatching(/^us-west-2[ab]$/),
      'capacity-type': expect.any(String),
      price: expect.any(Number),
    });
  });

  it('leaves launched claims with a registration timeout and schedules its wake-up', async () => {
    const h = harness(await seedCluster(SEED_004));
    const result = await provision(h.deps, { hints: [] });
    for (const id of result.created) {
      const claim = h.store.claims.get(id)!;
      expect(claim.state).toBe('Launched');
      expect(claim.timers.registrationTimeout).toBe(h.clock.now() + REGISTRATION_MS);
      expect(claim.timers.launchTimeout).toBeUndefined();
      expect(h.timers.scheduled).toContainEqual({ nodeClaimId: id, dueAt: h.clock.now() + REGISTRATION_MS });
    }
  });

  it('a redelivered batch launches nothing more: its pods wait for the in-flight claims', async () => {
    const h = harness(await seedCluster(SEED_004));
    const hints = h.cluster.pods.map((p) => ({
      namespace: 'default',
      name: p.metadata.name,
      uid: p.metadata.uid!,
    }));
    const first = await provision(h.deps, { hints });
    const second = await provision(h.deps, { hints });
    expect(first.launched).toHaveLength(4);
    expect(second).toMatchObject({ created: [], launched: [], waitingForInFlight: 21, unschedulable: [] });
    expect(h.cloud.instances).toHaveLength(4);
    expect(h.cloud.launches).toBe(4);
  });

  it('claims whose node registered are existing nodes (starting taints ignored): their pods go there, nothing is launched', async () => {
    const h = harness(await seedCluster(SEED_004));
    const first = await provision(h.deps, { hints: [] });
    h.cluster.nodes = first.launched.map((l) =>
      node({
        name: `ip-${l.instanceId}`,
        zone: l.zone,
        instanceType: l.instanceType,
        nodePool: l.nodePool,
        labels:
          l.nodePool === 'spot-general'
            ? { 'managed-by': 'karpenter' }
            : { purpose: 'addons', 'managed-by': 'karpenter' },
        taints: l.nodePool === 'spot-general' ? [] : [{ key: 'opsguru.io/addons', effect: 'NoSchedule' }],
        allocatable: { cpu: l.instanceType === 'm5.large' ? '1930m' : '7910m', memory: '14Gi', pods: '58' },
      }),
    );
    for (const n of h.cluster.nodes)
      n.spec = {
        ...n.spec,
        providerID: `aws:///us-west-2a/${n.metadata.name.slice(3)}`,
        // Still starting: the taints of a node that is not ready are ignored for joiner's own nodes.
        taints: [...(n.spec?.taints ?? []), { key: 'node.kubernetes.io/not-ready', effect: 'NoSchedule' }],
      };
    const second = await provision(h.deps, { hints: [] });
    expect(second).toMatchObject({ created: [], launched: [], waitingForInFlight: 0, placedOnExisting: 21 });
    expect(h.cluster.events.filter((e) => e.message.includes('node/ip-i-'))).toHaveLength(21);
  });
});

describe('provision: launches are prepared while their claims are written', () => {
  it('prepares each claim with the options of its first attempt while recording it; its CreateFleet waits for that', async () => {
    const h = harness(await seedCluster(SEED_004));
    const events: string[] = [];
    const prepared: { claim: string; capacityType: string; options: number }[] = [];
    const launch = h.cloud.launch.bind(h.cloud);
    const cloud = Object.assign(Object.create(h.cloud), {
      prepare: async (input: Omit<LaunchInput, 'clientToken'>) => {
        events.push(`prepare:${input.claim.id}`);
        await new Promise((resolve) => setTimeout(resolve, 20));
        events.push(`prepared:${input.claim.id}`);
        prepared.push({
          claim: input.claim.id,
          capacityType: input.capacityType,
          options: input.options.length,
        });
      },
      launch: async (input: LaunchInput) => {
        events.push(`launch:${input.claim.id}`);
        return launch(input);
      },
    });
    const store = Object.create(h.store) as typeof h.store;
    let capacityReads = 0;
    store.listUnavailableOfferings = (now) => {
      capacityReads++;
      return h.store.listUnavailableOfferings(now);
    };
    // The options each claim had when its attempt was recorded (a launched claim keeps only its own).
    const recorded = new Map<string, NodeClaim['options']>();
    store.updateNodeClaim = (claim) => {
      if (claim.state === 'Pending') {
        events.push(`record:${claim.id}`);
        recorded.set(claim.id, claim.options);
      }
      return h.store.updateNodeClaim(claim);
    };
    const result = await provision({ ...h.deps, cloud, store }, { hints: [] });
    expect(result.launched).toHaveLength(4);
    expect(capacityReads).toBe(1);
    expect(prepared.map((p) => p.claim).sort()).toEqual([...result.created].sort());
    for (const id of result.created) {
      const at = (e: string) => events.indexOf(`${e}:${id}`);
      expect(at('prepare')).toBeLessThan(at('record'));
      expect(at('record')).toBeLessThan(at('prepared'));
      expect(at('prepared')).toBeLessThan(at('launch'));
    }
    for (const p of prepared) {
      const options = recorded.get(p.claim)!;
      expect(p.capacityType).toBe(options[0].capacityType);
      expect(p.options).toBe(options.filter((o) => o.capacityType === p.capacityType).length);
    }
  });

  it('a hinted run resolves its NodeClasses as soon as their documents are read, before the rest of the cluster', async () => {
    const h = harness(await seedCluster(SEED_004));
    const events: string[] = [];
    const cloud = Object.assign(Object.create(h.cloud), {
      prepareNodeClass: async (nodeClass: { name: string }) => {
        events.push(`nodeclass:${nodeClass.name}`);
      },
    });
    const cluster = Object.create(h.cluster) as typeof h.cluster;
    cluster.listPendingAndBoundPods = async () => {
      await new Promise((resolve) => setTimeout(resolve, 20));
      events.push('pending pods read');
      return h.cluster.listPendingAndBoundPods();
    };
    const hint = h.cluster.pods[0];
    const hints = [{ namespace: 'default', name: hint.metadata.name, uid: hint.metadata.uid! }];
    const result = await provision({ ...h.deps, cloud, cluster }, { hints });
    expect(result.launched).toHaveLength(4);
    expect(events[0]).toMatch(/^nodeclass:/);
    expect(events.indexOf('pending pods read')).toBeGreaterThan(events.lastIndexOf(events[0]));
  });

  it('a claim write that fails fails the run only once the other claims have launched', async () => {
    const h = harness(await seedCluster(SEED_004));
    const store = Object.create(h.store) as typeof h.store;
    store.createNodeClaim = async (claim) => {
      if (claim.nodePool === 'addons-ondemand') throw new Error('ProvisionedThroughputExceeded');
      return h.store.createNodeClaim(claim);
    };
    const launch = h.cloud.launch.bind(h.cloud);
    const cloud = Object.assign(Object.create(h.cloud), {
      launch: async (input: LaunchInput) => {
        await new Promise((resolve) => setTimeout(resolve, 20));
        return launch(input);
      },
    });
    await expect(provision({ ...h.deps, store, cloud }, { hints: [] })).rejects.toThrow(
      /ProvisionedThroughput/,
    );
    const launched = [...h.store.claims.values()].filter((c) => c.state === 'Launched');
    expect(launched).toHaveLength(3);
    expect(h.cloud.instances).toHaveLength(3);
    expect(h.store.leases.get('provisioner')).toBeUndefined();
  });

  it('a run with no pending pod resolves no NodeClass', async () => {
    const h = harness(await seedCluster(SEED_004));
    h.cluster.pods = [];
    let resolved = 0;
    const cloud = Object.assign(Object.create(h.cloud), {
      prepareNodeClass: async () => {
        resolved++;
      },
    });
    await provision({ ...h.deps, cloud }, { hints: [] });
    expect(resolved).toBe(0);
  });

  it('plans only the zones its NodeClasses have subnets in, once they are resolved', async () => {
    const h = harness(await seedCluster(SEED_004));
    const cloud = Object.assign(Object.create(h.cloud), {
      prepareNodeClass: async () => [{ name: 'us-west-2b' }],
    });
    const hint = h.cluster.pods[0];
    const hints = [{ namespace: 'default', name: hint.metadata.name, uid: hint.metadata.uid! }];
    const result = await provision({ ...h.deps, cloud }, { hints });
    expect(result.launched).toHaveLength(4);
    const zones = new Set([...h.store.claims.values()].flatMap((c) => c.options.map((o) => o.zone)));
    expect([...zones]).toEqual(['us-west-2b']);
  });

  it('a NodeClass that does not resolve ahead is planned in every zone (its launch reports the problem)', async () => {
    const h = harness(await seedCluster(SEED_004));
    const cloud = Object.assign(Object.create(h.cloud), {
      prepareNodeClass: async () => {
        throw new Error('DescribeSubnets throttled');
      },
    });
    const hint = h.cluster.pods[0];
    const hints = [{ namespace: 'default', name: hint.metadata.name, uid: hint.metadata.uid! }];
    await provision({ ...h.deps, cloud }, { hints });
    const zones = new Set([...h.store.claims.values()].flatMap((c) => c.options.map((o) => o.zone)));
    expect(zones.size).toBeGreaterThan(1);
  });

  it('a failing preparation does not stop the launches', async () => {
    const h = harness(await seedCluster(SEED_004));
    const cloud = Object.assign(Object.create(h.cloud), {
      prepare: async () => {
        throw new Error('DescribeSubnets throttled');
      },
    });
    const result = await provision({ ...h.deps, cloud }, { hints: [] });
    expect(result).toMatchObject({ incomplete: false, failed: [] });
    expect(result.launched).toHaveLength(4);
  });
});

describe('provision: the API server is the truth', () => {
  it('drops hinted pods that are bound or gone and plans pending pods nobody hinted', async () => {
    const h = harness(await seedCluster(SEED_004));
    const result = await provision(h.deps, {
      hints: [
        { namespace: 'default', name: 'gone', uid: 'uid-gone' },
        { namespace: 'default', name: 'gone', uid: 'uid-gone' },
      ],
    });
    expect(result).toMatchObject({ hints: 1, staleHints: 1, pendingPods: 21 });
    expect(result.launched).toHaveLength(4);
  });

  it('skips an invalid NodePool document with its diagnostics and provisions with the others', async () => {
    const cluster = await seedCluster(SEED_004);
    cluster.nodePoolDocs.push({
      apiVersion: 'karpenter.sh/v1',
      kind: 'NodePool',
      metadata: { name: 'broken' },
      spec: { template: { spec: { requirements: [{ key: 'x', operator: 'Bogus', values: [] }] } } },
    });
    const h = harness(cluster);
    const result = await provision(h.deps, { hints: [] });
    expect(result.invalidDocuments).toBeGreaterThanOrEqual(1);
    expect(result.launched).toHaveLength(4);
    const errors = h.log.lines.filter(
      (l) => l.level === 'error' && l.message.startsWith('ignoring invalid configuration'),
    );
    expect(errors.some((e) => e.message.includes('NodePool/broken'))).toBe(true);
  });

  it('explains pods that fit nowhere with a FailedScheduling warning event', async () => {
    const cluster = await seedCluster(SEED_004);
    cluster.pods.push(
      asPending(pod({ name: 'huge', requests: { cpu: '500' }, nodeSelector: { 'managed-by': 'karpenter' } })),
    );
    const h = harness(cluster);
    const result = await provision(h.deps, { hints: [] });
    expect(result.unschedulable).toEqual([{ pod: 'default/huge', reason: expect.any(String) }]);
    const warning = h.cluster.events.find((e) => e.type === 'Warning');
    expect(warning).toMatchObject({
      reason: 'FailedScheduling',
      involvedObject: { kind: 'Pod', name: 'huge', namespace: 'default' },
    });
    expect(warning?.message).toMatch(/^Failed to schedule pod, .+/);
  });

  it('fails the run when the API server cannot be read, before writing anything', async () => {
    const cluster = await seedCluster(SEED_004);
    cluster.failing = new Error('connect ECONNREFUSED');
    const h = harness(cluster);
    await expect(provision(h.deps, { hints: [] })).rejects.toThrow('ECONNREFUSED');
    expect(h.store.claims.size).toBe(0);
    expect(h.store.leases.size).toBe(0);
  });
});
