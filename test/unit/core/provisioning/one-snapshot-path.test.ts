/**
 * `joiner plan` builds its cluster snapshot from files and plans it with the provisioner's own
 * planning (planRun): StorageClasses and RuntimeClasses in the files count, and `validate` names
 * every document kind it does not use.
 */
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { computePlan } from '../../../../bin/commands/plan.js';
import { renderValidation } from '../../../../bin/commands/validate.js';
import { loadFiles } from '../../../../functions/adapters/files/load-files.js';
import { bundledCatalog } from '../../../../functions/core/catalog/bundled.js';
import { snapshotFromFiles } from '../../../../functions/core/provisioning/file-snapshot.js';
import { planRun } from '../../../../functions/core/provisioning/plan-run.js';

const CONFIG = `apiVersion: karpenter.k8s.aws/v1
kind: EC2NodeClass
metadata: { name: default }
spec:
  role: KarpenterNodeRole-test
  amiSelectorTerms: [{ alias: al2023@latest }]
  subnetSelectorTerms: [{ tags: { karpenter.sh/discovery: test } }]
  securityGroupSelectorTerms: [{ tags: { karpenter.sh/discovery: test } }]
---
apiVersion: karpenter.sh/v1
kind: NodePool
metadata: { name: general }
spec:
  template:
    spec:
      nodeClassRef: { group: karpenter.k8s.aws, kind: EC2NodeClass, name: default }
      requirements:
        - { key: karpenter.sh/capacity-type, operator: In, values: [on-demand] }
        - { key: node.kubernetes.io/instance-type, operator: In, values: [m5.large, m5.xlarge, m5.2xlarge] }
`;

const STORAGE = `apiVersion: storage.k8s.io/v1
kind: StorageClass
metadata: { name: only-c }
provisioner: ebs.csi.aws.com
volumeBindingMode: WaitForFirstConsumer
allowedTopologies:
  - matchLabelExpressions:
      - { key: topology.kubernetes.io/zone, values: [us-west-2c] }
---
apiVersion: v1
kind: PersistentVolumeClaim
metadata: { name: data, namespace: default }
spec:
  storageClassName: only-c
  accessModes: [ReadWriteOnce]
  resources: { requests: { storage: 10Gi } }
---
apiVersion: v1
kind: Pod
metadata: { name: db, namespace: default }
spec:
  containers: [{ name: db, resources: { requests: { cpu: "1" } } }]
  volumes: [{ name: data, persistentVolumeClaim: { claimName: data } }]
`;

const RUNTIME = `apiVersion: node.k8s.io/v1
kind: RuntimeClass
metadata: { name: kata }
handler: kata
overhead: { podFixed: { cpu: "3" } }
---
apiVersion: v1
kind: Pod
metadata: { name: sandboxed, namespace: default }
spec:
  runtimeClassName: kata
  containers: [{ name: app, resources: { requests: { cpu: "1" } } }]
`;

const OTHER = `apiVersion: v1
kind: ConfigMap
metadata: { name: settings, namespace: default }
data: { a: b }
---
apiVersion: v1
kind: Service
metadata: { name: web, namespace: default }
spec: { ports: [{ port: 80 }] }
`;

async function dir(docs: Record<string, string>): Promise<string> {
  const d = await mkdtemp(join(tmpdir(), 'snapshot-'));
  for (const [name, text] of Object.entries(docs)) await writeFile(join(d, name), text);
  return d;
}

describe('one snapshot path for plan and the provisioner', () => {
  it('a WaitForFirstConsumer StorageClass allowing only us-west-2c puts the node in us-west-2c', async () => {
    const d = await dir({ 'config.yaml': CONFIG, 'storage.yaml': STORAGE });
    const out = await computePlan([d]);
    expect(out.unschedulable).toEqual([]);
    expect(out.nodeClaims).toHaveLength(1);
    expect(new Set(out.nodeClaims[0].instanceTypeOptions.map((o) => o.zone))).toEqual(
      new Set(['us-west-2c']),
    );
  });

  it("a RuntimeClass's overhead counts: 1 CPU + 3 CPU overhead does not fit an m5.large", async () => {
    const d = await dir({ 'config.yaml': CONFIG, 'runtime.yaml': RUNTIME });
    const out = await computePlan([d]);
    expect(out.nodeClaims).toHaveLength(1);
    expect(out.nodeClaims[0].requests.cpu).toBeGreaterThanOrEqual(4000);
    expect(out.nodeClaims[0].instanceTypeOptions.map((o) => o.instanceType)).not.toContain('m5.large');
  });

  it('plan gives what the provisioner planning gives for the same documents', async () => {
    const d = await dir({ 'config.yaml': CONFIG, 'storage.yaml': STORAGE, 'runtime.yaml': RUNTIME });
    const out = await computePlan([d]);
    const loaded = await loadFiles([d]);
    const provisioner = planRun(snapshotFromFiles(loaded), [], [], bundledCatalog, { now: 0 });
    expect(out.nodeClaims).toEqual(provisioner.plan.nodeClaims);
    expect(out.unschedulable).toEqual(provisioner.plan.unschedulable);
  });

  it('validate names every document it does not use', async () => {
    const d = await dir({ 'config.yaml': CONFIG, 'other.yaml': OTHER });
    const { lines } = renderValidation(await loadFiles([d]));
    expect(lines).toContain(
      `${join(d, 'other.yaml')}: ConfigMap/settings: skipped (joiner does not use ConfigMap)`,
    );
    expect(lines).toContain(`${join(d, 'other.yaml')}: Service/web: skipped (joiner does not use Service)`);
    expect(lines.at(-1)).toMatch(/2 skipped/);
  });
});
