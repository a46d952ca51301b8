import { describe, expect, it } from 'vitest';
import { readClusterConfig } from '../../../../../functions/core/lifecycle/cluster-config.js';
import {
  parseKarpenterKinds,
  selectManagedNodePools,
  unmanagedPoolsSentence,
} from '../../../../../functions/core/model/config/karpenter-kinds.js';
import type { ConfigDocument } from '../../../../../functions/core/ports/cluster-api.js';
import { parseConfiguration } from '../../../../../functions/core/provisioning/cluster-snapshot.js';
import { settingsFromEnv } from '../../../../../functions/handlers/runtime/settings.js';
import { RecordingLog } from '../../provisioning/fakes.js';

const nodeClassSpec = {
  role: 'KarpenterNodeRole',
  amiSelectorTerms: [{ alias: 'al2023@latest' }],
  subnetSelectorTerms: [{ tags: { 'karpenter.sh/discovery': 'c' } }],
  securityGroupSelectorTerms: [{ tags: { 'karpenter.sh/discovery': 'c' } }],
};
const ec2NodeClass = (name: string): ConfigDocument => ({
  apiVersion: 'karpenter.k8s.aws/v1',
  kind: 'EC2NodeClass',
  metadata: { name },
  spec: nodeClassSpec,
});
const joinerNodeClass = (name: string): ConfigDocument => ({
  apiVersion: 'joiner.sh/v1',
  kind: 'NodeClass',
  metadata: { name },
  spec: nodeClassSpec,
});
const nodePool = (apiVersion: string, name: string, nodeClassRef: object): ConfigDocument => ({
  apiVersion,
  kind: 'NodePool',
  metadata: { name },
  spec: { template: { spec: { nodeClassRef, requirements: [] } } },
});
const provisioner: ConfigDocument = {
  apiVersion: 'karpenter.sh/v1alpha5',
  kind: 'Provisioner',
  metadata: { name: 'legacy' },
  spec: { providerRef: { name: 'karpenter' } },
};
const karpenterPool = nodePool('karpenter.sh/v1', 'default', {
  group: 'karpenter.k8s.aws',
  kind: 'EC2NodeClass',
  name: 'karpenter',
});
const joinerPool = nodePool('joiner.sh/v1', 'mine', { group: 'joiner.sh', kind: 'NodeClass', name: 'mine' });
const betaPool = nodePool('karpenter.sh/v1beta1', 'beta', {
  apiVersion: 'karpenter.k8s.aws/v1beta1',
  kind: 'EC2NodeClass',
  name: 'karpenter',
});
const documents = [
  karpenterPool,
  betaPool,
  provisioner,
  joinerPool,
  ec2NodeClass('karpenter'),
  joinerNodeClass('mine'),
];

describe('which NodePools joiner acts on (joiner:karpenterKinds)', () => {
  it('parses manage and ignore, defaults to manage, and names the setting on a bad value', () => {
    expect(parseKarpenterKinds(undefined, 'X')).toBe('manage');
    expect(parseKarpenterKinds('', 'X')).toBe('manage');
    expect(parseKarpenterKinds('ignore', 'X')).toBe('ignore');
    expect(parseKarpenterKinds('manage', 'X')).toBe('manage');
    expect(() => parseKarpenterKinds('Ignore', 'environment variable JOINER_KARPENTER_KINDS')).toThrow(
      "environment variable JOINER_KARPENTER_KINDS must be one of manage, ignore (got 'Ignore')",
    );
  });

  it('manages every kind with manage', () => {
    const { managed, unmanaged } = selectManagedNodePools(documents, 'manage');
    expect(managed).toEqual(documents);
    expect(unmanaged).toEqual([]);
  });

  it("with ignore leaves out every karpenter.sh NodePool and Provisioner, keeps joiner's and the NodeClasses", () => {
    const { managed, unmanaged } = selectManagedNodePools(documents, 'ignore');
    expect(managed).toEqual([joinerPool, ec2NodeClass('karpenter'), joinerNodeClass('mine')]);
    expect(unmanaged.map((u) => `${u.apiVersion} ${u.kind}/${u.name}`)).toEqual([
      'karpenter.sh/v1 NodePool/default',
      'karpenter.sh/v1beta1 NodePool/beta',
      'karpenter.sh/v1alpha5 Provisioner/legacy',
    ]);
    expect(unmanaged[0].reason).toContain('joiner:karpenterKinds=ignore');
  });

  it('builds the sentence of the pod reasons, and none when nothing is left out', () => {
    expect(unmanagedPoolsSentence([])).toBeUndefined();
    const { unmanaged } = selectManagedNodePools([karpenterPool, betaPool], 'ignore');
    expect(unmanagedPoolsSentence(unmanaged)).toBe(
      "joiner does not manage NodePool(s) default, beta (Karpenter's kinds are ignored: joiner:karpenterKinds=ignore)",
    );
  });

  it("with ignore the provisioner's configuration has joiner's pool only, and no Karpenter NodeClass nobody uses", () => {
    const log = new RecordingLog();
    const parsed = parseConfiguration(documents, log, 'ignore');
    expect(parsed.nodePools.map((p) => p.name)).toEqual(['mine']);
    expect(parsed.nodeClasses.map((c) => c.name)).toEqual(['mine']);
    expect(parsed.unmanagedNodePools.map((u) => u.name)).toEqual(['default', 'beta', 'legacy']);
    // The Provisioner (no inline provider, unknown providerRef) is not joiner's to complain about.
    expect(log.lines.filter((l) => l.level === 'error')).toEqual([]);
    expect(parsed.invalid).toEqual([]);

    const managed = parseConfiguration(documents, new RecordingLog(), 'manage');
    expect(managed.nodePools.map((p) => p.name).sort()).toEqual(['beta', 'default', 'legacy', 'mine']);
    expect(managed.unmanagedNodePools).toEqual([]);
  });

  it('keeps a Karpenter NodeClass a joiner.sh NodePool refers to', () => {
    const pool = nodePool('joiner.sh/v1', 'mine', {
      group: 'karpenter.k8s.aws',
      kind: 'EC2NodeClass',
      name: 'shared',
    });
    const parsed = parseConfiguration(
      [pool, ec2NodeClass('shared'), ec2NodeClass('other')],
      new RecordingLog(),
      'ignore',
    );
    expect(parsed.nodeClasses.map((c) => c.name)).toEqual(['shared']);
  });

  it("with ignore the lifecycle's configuration still names the left-out pools (their nodes are not 'deleted')", async () => {
    const cluster = {
      listNodePoolDocuments: async () =>
        documents.filter((d) => d.kind === 'NodePool' || d.kind === 'Provisioner'),
      listNodeClassDocuments: async () => documents.filter((d) => d.kind.endsWith('NodeClass')),
    };
    const config = await readClusterConfig(cluster, 'ignore');
    expect(config.nodePools.map((p) => p.name)).toEqual(['mine']);
    expect([...config.nodePoolNames].sort()).toEqual(['beta', 'default', 'legacy', 'mine']);
    const all = await readClusterConfig(cluster);
    expect(all.nodePools.map((p) => p.name).sort()).toEqual(['beta', 'default', 'legacy', 'mine']);
  });

  it('reads JOINER_KARPENTER_KINDS in the settings', () => {
    expect(settingsFromEnv({}).karpenterKinds).toBe('manage');
    expect(settingsFromEnv({ JOINER_KARPENTER_KINDS: 'ignore' }).karpenterKinds).toBe('ignore');
    expect(() => settingsFromEnv({ JOINER_KARPENTER_KINDS: 'off' }).karpenterKinds).toThrow(
      "environment variable JOINER_KARPENTER_KINDS must be one of manage, ignore (got 'off')",
    );
  });
});
