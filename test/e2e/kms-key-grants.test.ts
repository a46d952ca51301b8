/**
 * Customer-managed EBS keys end to end, with the simulated account's IAM of the stack synthesized
 * from each scenario's `stack` (its cdk.json): a key not in `joiner:ebsKmsKeyArns` gets every
 * launch terminated with EC2's real reason (Client.InternalError) and joiner says which key to add
 * where, on the NodeClaim, the NodePool, the pods and the EC2NodeClass; the key listed, the pods run.
 */
import { describe, expect, it } from 'vitest';
import type { SimulatedCloud } from '../../functions/simulator/cloud.js';
import { explain, runShippedScenario } from './scenario-runner.js';
import { type Condition, conditionsOf, type Event, ready } from './scenario-status.js';

const KEY = 'arn:aws:kms:us-west-2:111122223333:key/7c6b5a49-3827-4161-9f0e-d1c2b3a49586';

const readyOf = (cloud: SimulatedCloud, apiVersion: string, kind: string): Condition | undefined =>
  ready(conditionsOf(cloud, apiVersion, kind));

describe('an EC2NodeClass whose EBS key is a customer-managed KMS key', () => {
  it('not in joiner:ebsKmsKeyArns: EC2 terminates each launch (Client.InternalError) and joiner names the key and the setting everywhere', async () => {
    let reasons: (string | undefined)[] = [];
    let events: Event[] = [];
    let nodeClassReady: Condition | undefined;
    let nodePoolReady: Condition | undefined;
    const result = await runShippedScenario('kms-key-not-granted', {
      inspect: async (cloud) => {
        reasons = [...cloud.ec2.state.instances.values()].map((i) => i.stateReason?.code);
        events = cloud.kube.store.list<Event>('v1', 'Event');
        nodeClassReady = readyOf(cloud, 'karpenter.k8s.aws/v1', 'EC2NodeClass');
        nodePoolReady = readyOf(cloud, 'karpenter.sh/v1', 'NodePool');
      },
    });
    expect(result.failures, explain(result)).toEqual([]);
    // The account refused EC2's KMS calls made as the controller role, on that key only.
    expect(result.summary.iam.denied.length).toBeGreaterThan(0);
    for (const d of result.summary.iam.denied) {
      expect(d.action).toMatch(/^kms:/);
      expect(d.resource).toBe(KEY);
    }
    // Every launch was terminated with EC2's reason; the NodeClass backed off (2 in 5 minutes).
    expect(reasons.length).toBeGreaterThanOrEqual(1);
    expect(reasons.length).toBeLessThanOrEqual(3);
    expect(new Set(reasons)).toEqual(new Set(['Client.InternalError']));
    const says = (m: string | undefined) => {
      expect(m).toContain(KEY);
      expect(m).toContain('joiner:ebsKmsKeyArns');
    };
    const warnings = events.filter((e) => e.type === 'Warning' && e.reason === 'LaunchClientError');
    for (const kind of ['NodeClaim', 'NodePool', 'Pod']) {
      const of = warnings.filter((e) => e.involvedObject.kind === kind);
      expect(of.length, kind).toBeGreaterThan(0);
      says(of[0].message);
    }
    expect(nodeClassReady).toMatchObject({ status: 'False', reason: 'LaunchClientError' });
    says(nodeClassReady?.message);
    expect(nodePoolReady).toMatchObject({ status: 'False', reason: 'NodeClassNotReady' });
  }, 180_000);

  it('listed in joiner:ebsKmsKeyArns: the launches keep their volumes, the pods run, no IAM denial', async () => {
    let reasons: (string | undefined)[] = [];
    const result = await runShippedScenario('kms-key-granted', {
      inspect: async (cloud) => {
        reasons = [...cloud.ec2.state.instances.values()].map((i) => i.stateReason?.code);
      },
    });
    expect(result.failures, explain(result)).toEqual([]);
    expect(result.summary.iam).toMatchObject({ enforced: true, denied: [] });
    expect(reasons).toEqual([undefined]);
  }, 180_000);
});
