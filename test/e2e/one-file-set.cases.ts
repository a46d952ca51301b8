/**
 * One file set, three paths: `joiner plan`, the provisioner's planning of the same snapshot and
 * `joiner simulate` (joiner's real handlers in the simulated cloud, where the simulated
 * kube-scheduler binds the pods) give the same placement: the same nodes (instance type and
 * capacity type) holding the same pods.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { computePlan } from '../../bin/commands/plan.js';
import { loadFiles } from '../../functions/adapters/files/load-files.js';
import { bundledCatalog } from '../../functions/core/catalog/bundled.js';
import { snapshotFromFiles } from '../../functions/core/provisioning/file-snapshot.js';
import { planRun } from '../../functions/core/provisioning/plan-run.js';
import type { PlannedNodeClaim } from '../../functions/core/scheduling/types.js';
import type { SimulatedCloud } from '../../functions/simulator/cloud.js';
import type { KubeObject } from '../../functions/simulator/kube/api/object-store.js';
import { loadScenario } from '../../functions/simulator/scenario/load-scenario.js';
import { runScenario } from '../../functions/simulator/scenario/run-scenario.js';

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

/** Three replicas that may not share a node, and one pod too big to join any of them. */
const WORKLOADS = `apiVersion: apps/v1
kind: Deployment
metadata: { name: web, namespace: default }
spec:
  replicas: 3
  selector: { matchLabels: { app: web } }
  template:
    metadata: { labels: { app: web } }
    spec:
      terminationGracePeriodSeconds: 0
      affinity:
        podAntiAffinity:
          requiredDuringSchedulingIgnoredDuringExecution:
            - topologyKey: kubernetes.io/hostname
              labelSelector: { matchLabels: { app: web } }
      containers: [{ name: app, image: nginx, resources: { requests: { cpu: "1", memory: 1Gi } } }]
---
apiVersion: v1
kind: Pod
metadata: { name: batch, namespace: default }
spec:
  terminationGracePeriodSeconds: 0
  containers: [{ name: app, image: nginx, resources: { requests: { cpu: "3", memory: 2Gi } } }]
`;

const SCENARIO = `name: one-file-set
description: the files joiner plan reads, run by joiner's handlers
seed: 1
clusterName: test
cluster:
  - file: config.yaml
steps:
  - apply:
      - file: workloads.yaml
  - wait: { for: idle, timeout: 10m }
expect:
  pods: { total: 4, running: 4, pending: 0 }
stack:
  nodeRoleArns:
    - arn:aws:iam::111122223333:role/KarpenterNodeRole-test
`;

/** The workload a pod belongs to: its Deployment's name, or its own. */
const workload = (pod: string) => pod.replace(/^.*\//, '').replace(/^(web)-.*$/, '$1');

/** A placement: per node, `instance type/capacity type: workloads`, sorted. */
function planned(claims: readonly PlannedNodeClaim[]): string[] {
  return claims
    .map((c) => {
      const best = c.instanceTypeOptions[0];
      return `${best.instanceType}/${best.capacityType}: ${c.pods.map(workload).sort().join(',')}`;
    })
    .sort();
}

const dirs: string[] = [];
afterAll(async () => {
  for (const d of dirs) await rm(d, { recursive: true, force: true });
});

/** The placements of the files by `joiner plan`, the provisioner's planning and `joiner simulate`. */
async function threePaths(config: string, workloads: string, pods: number) {
  const dir = await mkdtemp(join(tmpdir(), 'one-file-set-'));
  dirs.push(dir);
  await writeFile(join(dir, 'config.yaml'), config);
  await writeFile(join(dir, 'workloads.yaml'), workloads);
  await writeFile(
    join(dir, 'scenario.yaml'),
    SCENARIO.replace('total: 4, running: 4', `total: ${pods}, running: ${pods}`),
  );
  const files = [join(dir, 'config.yaml'), join(dir, 'workloads.yaml')];

  const plan = await computePlan(files);
  expect(plan.unschedulable).toEqual([]);
  const byPlan = planned(plan.nodeClaims);

  const provisioner = planRun(snapshotFromFiles(await loadFiles(files)), [], [], bundledCatalog, {
    now: 0,
  });
  const byProvisioner = planned(provisioner.plan.nodeClaims);

  let cloud: SimulatedCloud | undefined;
  const result = await runScenario(await loadScenario(join(dir, 'scenario.yaml')), {
    speed: 200,
    prepare: async (c) => {
      cloud = c;
    },
  });
  expect(result.failures).toEqual([]);
  const nodes = new Map(result.summary.nodes.map((n) => [n.name, n]));
  const onNode = new Map<string, string[]>();
  for (const p of cloud!.kube.store.list('v1', 'Pod') as KubeObject[]) {
    const node = (p.spec as { nodeName?: string }).nodeName;
    if (p.metadata.namespace !== 'default' || !node) continue;
    onNode.set(node, [...(onNode.get(node) ?? []), workload(p.metadata.name)]);
  }
  const bySimulate = [...onNode]
    .map(([name, pods]) => {
      const n = nodes.get(name)!;
      return `${n.instanceType}/${n.capacityType}: ${pods.sort().join(',')}`;
    })
    .sort();
  return { byPlan, byProvisioner, bySimulate, nodes: result.summary.nodes.length };
}

/** A pod of 1 CPU whose RuntimeClass adds 3 CPU of overhead (4 CPU: more than an m5.xlarge holds). */
const RUNTIME_CLASS_WORKLOADS = `apiVersion: node.k8s.io/v1
kind: RuntimeClass
metadata: { name: kata }
handler: kata
overhead: { podFixed: { cpu: "3", memory: 256Mi } }
---
apiVersion: v1
kind: Pod
metadata: { name: sandboxed, namespace: default }
spec:
  runtimeClassName: kata
  terminationGracePeriodSeconds: 0
  containers: [{ name: app, image: nginx, resources: { requests: { cpu: "1", memory: 1Gi } } }]
`;

describe('joiner plan, the provisioner and joiner simulate place one file set alike', () => {
  it('three hostname-anti-affine web replicas and a big batch pod: the same nodes and pods by all three paths', async () => {
    const { byPlan, byProvisioner, bySimulate, nodes } = await threePaths(CONFIG, WORKLOADS, 4);
    // The batch pod gets a node of its own: 3 x m5.large + m5.xlarge ($0.48/h), not an m5.2xlarge
    // shared with a replica + 2 x m5.large ($0.576/h).
    expect(byPlan).toEqual([
      'm5.large/on-demand: web',
      'm5.large/on-demand: web',
      'm5.large/on-demand: web',
      'm5.xlarge/on-demand: batch',
    ]);
    expect(byProvisioner).toEqual(byPlan);
    expect(bySimulate).toEqual(byPlan);
    expect(nodes).toBe(byPlan.length);
  }, 180_000);

  it("a pod's RuntimeClass overhead counts alike: 4 CPU need an m5.2xlarge by all three paths (an m5.xlarge has 3.92 CPU allocatable)", async () => {
    const { byPlan, byProvisioner, bySimulate, nodes } = await threePaths(CONFIG, RUNTIME_CLASS_WORKLOADS, 1);
    expect(byPlan).toEqual(['m5.2xlarge/on-demand: sandboxed']);
    expect(byProvisioner).toEqual(byPlan);
    expect(bySimulate).toEqual(byPlan);
    expect(nodes).toBe(1);
  }, 180_000);
});
