import { describe, expect, it } from 'vitest';
import { explain, runShippedScenario } from './scenario-runner.js';
import { type Condition, conditionsOf, type Event, ready } from './scenario-status.js';

describe('an EC2NodeClass whose EBS KMS key is disabled', () => {
  it('launches back off (4 in 16 virtual minutes instead of one a minute), every object says why, and fixing the NodeClass resumes them', async () => {
    let started = 0;
    let launchedBeforeFix = -1;
    let nodePoolReady: Condition | undefined;
    let nodeClassReady: Condition | undefined;
    let events: Event[] = [];
    let finalNodePoolReady: Condition | undefined;
    let terminatedWithReason = 0;
    const result = await runShippedScenario('kms-key-unusable', {
      prepare: async (cloud) => {
        started = cloud.clock.now();
        // 16 virtual minutes in: the key is still in the EC2NodeClass.
        cloud.clock.setTimeout(() => {
          launchedBeforeFix = cloud.ec2.state.instances.size;
          nodePoolReady = ready(conditionsOf(cloud, 'karpenter.sh/v1', 'NodePool'));
          nodeClassReady = ready(conditionsOf(cloud, 'karpenter.k8s.aws/v1', 'EC2NodeClass'));
          events = cloud.kube.store.list<Event>('v1', 'Event');
        }, 16 * 60_000);
      },
      inspect: async (cloud) => {
        finalNodePoolReady = ready(conditionsOf(cloud, 'karpenter.sh/v1', 'NodePool'));
        terminatedWithReason = [...cloud.ec2.state.instances.values()].filter(
          (i) => i.stateReason?.code === 'Client.InvalidKMSKey.InvalidState',
        ).length;
      },
    });
    expect(result.failures, explain(result)).toEqual([]);
    expect(started).toBeGreaterThan(0);
    // EC2 keeps terminated instances visible for an hour: every launch is counted.
    expect(launchedBeforeFix).toBeGreaterThanOrEqual(3);
    expect(launchedBeforeFix).toBeLessThanOrEqual(5);
    expect(terminatedWithReason).toBe(launchedBeforeFix);
    expect(nodePoolReady).toMatchObject({ status: 'False', reason: 'NodeClassNotReady' });
    expect(nodePoolReady?.message).toMatch(/InvalidKMSKey .*Client\.InvalidKMSKey\.InvalidState/);
    expect(nodeClassReady).toMatchObject({ status: 'False', reason: 'InvalidKMSKey' });
    expect(nodeClassReady?.message).toMatch(/kmsKeyID/);
    const warnings = (kind: string) =>
      events.filter(
        (e) => e.involvedObject.kind === kind && e.type === 'Warning' && e.reason === 'InvalidKMSKey',
      );
    expect(warnings('NodeClaim').length).toBe(launchedBeforeFix);
    expect(warnings('NodePool').length).toBe(launchedBeforeFix);
    expect(warnings('Pod').length).toBeGreaterThanOrEqual(3);
    // While the NodeClass waits, the pods are told why they stay pending.
    expect(
      events.some(
        (e) =>
          e.involvedObject.kind === 'Pod' &&
          e.reason === 'FailedScheduling' &&
          /InvalidKMSKey/.test(e.message),
      ),
    ).toBe(true);
    // After the edit the pool is Ready again.
    expect(finalNodePoolReady).toMatchObject({ status: 'True' });
  }, 180_000);
});

describe('instances EC2 terminates during launch for want of capacity', () => {
  it('each terminated offering is marked unavailable and the next launch, within seconds, picks another: m5.large in three zones, then m5.xlarge runs', async () => {
    let launched: { type: string; zone: string; reason?: string; at: number }[] = [];
    let events: Event[] = [];
    const result = await runShippedScenario('launch-capacity-lost', {
      inspect: async (cloud) => {
        launched = [...cloud.ec2.state.instances.values()].map((i) => ({
          type: i.instanceType,
          zone: i.availabilityZone,
          reason: i.stateReason?.code,
          at: i.launchTime,
        }));
        events = cloud.kube.store.list<Event>('v1', 'Event');
      },
    });
    expect(result.failures, explain(result)).toEqual([]);
    const failed = launched.filter((i) => i.reason === 'Server.InsufficientInstanceCapacity');
    expect(failed.map((i) => i.type)).toEqual(['m5.large', 'm5.large', 'm5.large']);
    // Never the same offering twice.
    expect(new Set(failed.map((i) => i.zone)).size).toBe(3);
    expect(launched.filter((i) => i.reason === undefined).map((i) => i.type)).toEqual(['m5.xlarge']);
    // Each relaunch follows the termination at once (the provisioner is woken), not the next
    // one-minute sweep: all four launches fit in well under a minute of virtual time.
    const times = launched.map((i) => i.at).sort((a, b) => a - b);
    for (let n = 1; n < times.length; n++) expect(times[n] - times[n - 1]).toBeLessThan(15_000);
    expect(
      events.filter((e) => e.involvedObject.kind === 'NodeClaim' && e.reason === 'InsufficientCapacity'),
    ).toHaveLength(3);
  }, 180_000);
});
