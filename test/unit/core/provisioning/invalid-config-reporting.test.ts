/**
 * An invalid NodePool in the cluster is reported once per change — status ValidationSucceeded=False
 * and Ready=False with the message, one Warning event, one log line with long values truncated —
 * not once per provisioning run.
 */
import { describe, expect, it } from 'vitest';
import type { ConfigDocument } from '../../../../functions/core/ports/cluster-api.js';
import { provision } from '../../../../functions/core/provisioning/provision.js';
import { pod } from '../../../builders/workloads.js';
import { FakeCluster } from './fakes.js';
import { harness } from './harness.js';
import { asPending } from './seed-cluster.js';

const nodeClass: ConfigDocument = {
  apiVersion: 'karpenter.k8s.aws/v1',
  kind: 'EC2NodeClass',
  metadata: { name: 'default', uid: 'uid-class' },
  spec: {
    role: 'KarpenterNodeRole-test',
    amiSelectorTerms: [{ alias: 'al2023@latest' }],
    subnetSelectorTerms: [{ tags: { 'karpenter.sh/discovery': 'test' } }],
    securityGroupSelectorTerms: [{ tags: { 'karpenter.sh/discovery': 'test' } }],
  },
};

function badPool(operator: string, label = 'x'): ConfigDocument {
  return {
    apiVersion: 'karpenter.sh/v1',
    kind: 'NodePool',
    metadata: { name: 'bad', uid: 'uid-bad', generation: 1 },
    spec: {
      template: {
        metadata: { labels: { team: label } },
        spec: {
          nodeClassRef: { group: 'karpenter.k8s.aws', kind: 'EC2NodeClass', name: 'default' },
          requirements: [{ key: 'kubernetes.io/arch', operator, values: ['amd64'] }],
        },
      },
    },
  };
}

function cluster(doc: ConfigDocument): FakeCluster {
  const c = new FakeCluster();
  c.nodeClassDocs = [nodeClass];
  c.nodePoolDocs = [doc];
  c.pods = [asPending(pod({ name: 'web', requests: { cpu: '1' } }))];
  return c;
}

const errorLines = (h: ReturnType<typeof harness>) =>
  h.log.lines.filter((l) => l.level === 'error' && l.message.includes('NodePool/bad'));

describe('an invalid NodePool is reported once per change', () => {
  it('sets ValidationSucceeded=False and Ready=False, emits one Warning event and logs one line; later runs stay quiet', async () => {
    const h = harness(cluster(badPool('Inn')));
    await provision(h.deps, { hints: [] });
    await provision(h.deps, { hints: [] });
    await provision(h.deps, { hints: [] });
    const status = h.cluster.statuses.get('NodePool/bad') as {
      conditions: { type: string; status: string; message: string }[];
    };
    expect(status.conditions).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          type: 'ValidationSucceeded',
          status: 'False',
          message: expect.stringContaining('Inn'),
        }),
        expect.objectContaining({ type: 'Ready', status: 'False' }),
      ]),
    );
    const warnings = h.cluster.events.filter((e) => e.type === 'Warning' && e.involvedObject.name === 'bad');
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatchObject({
      reason: 'FailedValidation',
      involvedObject: { kind: 'NodePool', uid: 'uid-bad' },
    });
    expect(errorLines(h)).toHaveLength(1);
  });

  it('a change that is still invalid is reported again, once', async () => {
    const h = harness(cluster(badPool('Inn')));
    await provision(h.deps, { hints: [] });
    h.cluster.nodePoolDocs = [{ ...badPool('Innn'), status: h.cluster.nodePoolDocs[0].status }];
    await provision(h.deps, { hints: [] });
    await provision(h.deps, { hints: [] });
    expect(errorLines(h)).toHaveLength(2);
    expect(h.cluster.events.filter((e) => e.reason === 'FailedValidation')).toHaveLength(2);
  });

  it('long values are truncated in the log line and the status message', async () => {
    const h = harness(cluster(badPool('Inn', `${'v'.repeat(10_000)}`)));
    await provision(h.deps, { hints: [] });
    const [line] = errorLines(h);
    expect(JSON.stringify(line).length).toBeLessThan(3_000);
    const status = h.cluster.statuses.get('NodePool/bad') as { conditions: { message: string }[] };
    for (const c of status.conditions) expect(c.message.length).toBeLessThan(2_100);
  });
});
