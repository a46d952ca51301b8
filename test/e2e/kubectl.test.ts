/**
 * The real kubectl against `joiner sim up`'s system (the simulated cloud with joiner installed):
 * the commands a Karpenter user types, as they type them (no --validate=false).
 */
import { execFile, spawnSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SimulatedCloud } from '../../functions/simulator/cloud.js';
import { startSystem } from '../../functions/simulator/system/start-system.js';
import { smallCatalog } from '../integration/simulator/cloud/small-catalog.js';

const KUBECTL = process.env.KUBECTL ?? 'kubectl';
const hasKubectl = spawnSync(KUBECTL, ['version', '--client'], { encoding: 'utf8' }).status === 0;
const run = promisify(execFile);

let cloud: SimulatedCloud;
let cacheDir: string;

/** Runs kubectl against the simulated cluster; resolves with its output, or rejects with its stderr. */
async function kubectl(...args: string[]): Promise<string> {
  try {
    const { stdout } = await run(KUBECTL, args, {
      encoding: 'utf8',
      env: { ...process.env, KUBECONFIG: cloud.kubeconfigPath, KUBECACHEDIR: cacheDir },
    });
    return stdout;
  } catch (error) {
    const e = error as { stderr?: string; message: string };
    throw new Error(`kubectl ${args.join(' ')}: ${e.stderr || e.message}`);
  }
}

async function eventually(check: () => Promise<boolean>, what: string, tries = 150): Promise<void> {
  for (let i = 0; i < tries; i++) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`timed out waiting for ${what}`);
}

const header = (table: string): string[] =>
  table
    .split('\n')[0]
    .trim()
    .split(/\s{2,}/);

// CI installs kubectl (.ci/run); elsewhere the test needs one on the PATH (or KUBECTL).
describe.skipIf(!hasKubectl && !process.env.CI)('kubectl against joiner sim up', () => {
  beforeAll(async () => {
    cacheDir = await mkdtemp(join(tmpdir(), 'kubectl-cache-'));
    cloud = await startSystem({ catalog: smallCatalog, seed: 3, speed: 20 });
    // Start-up runs the catalog refresh and the installer function (slow on a loaded machine).
  }, 120_000);
  afterAll(async () => {
    await cloud?.close();
    await rm(cacheDir, { recursive: true, force: true });
  });

  it('applies, creates, scales, lists as tables, describes and deletes', async () => {
    expect(await kubectl('apply', '-f', 'examples/sim-up/nodepool.yaml')).toBe(
      'nodepool.karpenter.sh/default created\nec2nodeclass.karpenter.k8s.aws/default created\n',
    );
    expect(await kubectl('create', 'deployment', 'web', '--image=nginx', '--replicas=3')).toBe(
      'deployment.apps/web created\n',
    );
    await eventually(async () => {
      const pods = await kubectl('get', 'pods', '--no-headers');
      return (
        pods.trim().split('\n').length === 3 &&
        pods.split('\n').every((l) => l === '' || l.includes('Running'))
      );
    }, 'three Running pods');
    const pods = await kubectl('get', 'pods', '-o', 'wide');
    expect(header(pods)).toEqual([
      'NAME',
      'READY',
      'STATUS',
      'RESTARTS',
      'AGE',
      'IP',
      'NODE',
      'NOMINATED NODE',
      'READINESS GATES',
    ]);
    const nodes = await kubectl('get', 'nodes', '-o', 'wide');
    expect(header(nodes).slice(0, 7)).toEqual([
      'NAME',
      'STATUS',
      'ROLES',
      'AGE',
      'VERSION',
      'INTERNAL-IP',
      'EXTERNAL-IP',
    ]);
    const nodeName = nodes.split('\n')[1].split(/\s+/)[0];
    expect(nodes.split('\n')[1]).toMatch(/\sReady\s/);
    expect(pods).toContain(nodeName);

    expect(await kubectl('scale', 'deployment', 'web', '--replicas=5')).toBe('deployment.apps/web scaled\n');
    const claims = await kubectl('get', 'nodeclaims');
    expect(header(claims)).toEqual(['NAME', 'TYPE', 'CAPACITY', 'ZONE', 'NODE', 'READY', 'AGE']);
    expect(claims.split('\n')[1]).toMatch(
      new RegExp(`^default-\\S+\\s+[cm]5\\.\\S+\\s+on-demand\\s+us-west-2\\w\\s+${nodeName}\\s+True\\s`),
    );
    // NodePool status comes with the sweep (every virtual minute).
    await eventually(
      async () => /default\s+default\s+1\s+True/.test(await kubectl('get', 'nodepools')),
      'NodePool status',
    );
    const both = await kubectl('get', 'nodepools,nodeclaims');
    expect(both).toMatch(/nodepool\.karpenter\.sh\/default\s+default\s+1\s+True/);
    expect(both).toMatch(/nodeclaim\.joiner\.sh\/default-/);
    expect(await kubectl('get', 'ec2nodeclasses')).toMatch(/default\s+True/);

    const described = await kubectl('describe', 'node', nodeName);
    for (const part of [
      'Name:',
      'Labels:',
      'karpenter.sh/nodepool=default',
      'Capacity:',
      'Non-terminated Pods:',
    ])
      expect(described).toContain(part);

    const events = await kubectl('get', 'events');
    expect(header(events)).toEqual(['LAST SEEN', 'TYPE', 'REASON', 'OBJECT', 'MESSAGE']);
    expect(events).toMatch(/Normal\s+Nominated\s+pod\/web-\S+\s+Pod should schedule on: nodeclaim\//);

    expect(await kubectl('delete', 'deployment', 'web')).toBe('deployment.apps "web" deleted\n');
    expect(await kubectl('get', 'deployments')).toBe('');
  }, 90_000);

  it('kubectl delete nodeclaim / node drains the node, terminates its instance, then the objects go', async () => {
    await kubectl('apply', '-f', 'examples/sim-up/nodepool.yaml');
    await kubectl('create', 'deployment', 'doomed', '--image=nginx', '--replicas=2');
    const podNodes = async (): Promise<string[]> => {
      const out = await kubectl('get', 'pods', '-l', 'app=doomed', '-o', 'json');
      const pods = JSON.parse(out).items as { spec: { nodeName?: string }; status: { phase?: string } }[];
      return pods.length === 2 && pods.every((p) => p.status.phase === 'Running' && p.spec.nodeName)
        ? [...new Set(pods.map((p) => p.spec.nodeName as string))]
        : [];
    };
    const claimOf = async (node: string): Promise<string | undefined> => {
      const claims = JSON.parse(await kubectl('get', 'nodeclaims', '-o', 'json')).items as {
        metadata: { name: string; finalizers?: string[] };
        status: { nodeName?: string };
      }[];
      const claim = claims.find((c) => c.status.nodeName === node);
      expect(claim?.metadata.finalizers ?? ['karpenter.sh/termination']).toEqual([
        'karpenter.sh/termination',
      ]);
      return claim?.metadata.name;
    };
    const instanceOf = (node: string): string => {
      const n = cloud.kube.store.get<{ spec: { providerID: string } }>('v1', 'Node', node);
      return String(n?.spec.providerID.split('/').pop());
    };
    await eventually(async () => (await podNodes()).length === 1, 'the two pods Running on one node');
    const [first] = await podNodes();
    const firstInstance = instanceOf(first);
    const claim = await claimOf(first);
    expect(claim).toBeDefined();
    expect(await kubectl('get', 'node', first, '-o', 'jsonpath={.metadata.finalizers}')).toContain(
      'karpenter.sh/termination',
    );

    // kubectl waits until the finalizer is removed: the node was drained and terminated by then.
    expect(await kubectl('delete', 'nodeclaim', String(claim))).toBe(
      `nodeclaim.joiner.sh "${claim}" deleted\n`,
    );
    await expect(kubectl('get', 'node', first)).rejects.toThrow(/not found/);
    expect(cloud.ec2.state.instances.get(firstInstance)?.state).toMatch(/shutting-down|terminated/);
    await eventually(async () => {
      const nodes = await podNodes();
      return nodes.length === 1 && nodes[0] !== first;
    }, 'the pods Running again on a new node');
    const [second] = await podNodes();
    const secondInstance = instanceOf(second);
    const secondClaim = await claimOf(second);

    expect(await kubectl('delete', 'node', second)).toBe(`node "${second}" deleted\n`);
    expect(cloud.ec2.state.instances.get(secondInstance)?.state).toMatch(/shutting-down|terminated/);
    await eventually(
      async () => !(await kubectl('get', 'nodeclaims', '-o', 'name')).includes(String(secondClaim)),
      "the deleted node's nodeclaim gone",
    );
    await eventually(async () => {
      const nodes = await podNodes();
      return nodes.length === 1 && nodes[0] !== second;
    }, 'the pods Running on a third node');
    await kubectl('delete', 'deployment', 'doomed');
  }, 300_000);

  it("says in the NodePool's status why its NodeClass is not ready", async () => {
    const dir = await mkdtemp(join(tmpdir(), 'kubectl-broken-'));
    try {
      const file = join(dir, 'broken.yaml');
      await writeFile(
        file,
        [
          'apiVersion: karpenter.sh/v1',
          'kind: NodePool',
          'metadata: { name: broken }',
          'spec: { template: { spec: { nodeClassRef: { group: karpenter.k8s.aws, kind: EC2NodeClass, name: broken } } } }',
          '---',
          'apiVersion: karpenter.k8s.aws/v1',
          'kind: EC2NodeClass',
          'metadata: { name: broken }',
          'spec:',
          '  role: joiner-sim-node',
          '  amiSelectorTerms: [{ alias: al2023@latest }]',
          '  subnetSelectorTerms: [{ tags: { karpenter.sh/discovery: nowhere } }]',
          '  securityGroupSelectorTerms: [{ tags: { karpenter.sh/discovery: joiner-sim } }]',
        ].join('\n'),
      );
      await kubectl('apply', '-f', file);
      const reason = () =>
        kubectl(
          'get',
          'nodepool',
          'broken',
          '-o',
          'jsonpath={.status.conditions[?(@.type=="NodeClassReady")].reason}',
        );
      await eventually(
        async () => (await reason()) === 'SubnetsNotFound',
        'NodeClassReady=False on the NodePool',
      );
      expect(await kubectl('get', 'nodepool', 'broken')).toMatch(/broken\s+broken\s+0\s+False/);
      expect(await kubectl('get', 'ec2nodeclass', 'broken')).toMatch(/broken\s+False/);
      await kubectl('delete', '-f', file);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('validates what it applies: a field of the wrong type is refused, with the field named', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'kubectl-apply-'));
    try {
      const file = join(dir, 'pool.yaml');
      await writeFile(
        file,
        [
          'apiVersion: joiner.sh/v1',
          'kind: NodePool',
          'metadata: { name: typo }',
          'spec:',
          '  weight: heavy',
          '  template: { spec: { nodeClassRef: { name: default } } }',
        ].join('\n'),
      );
      await expect(kubectl('apply', '-f', file)).rejects.toThrow(/spec\.weight.*must be of type integer/);
      await expect(kubectl('get', 'nodepools.joiner.sh', 'typo')).rejects.toThrow(/not found/);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('scales a Karpenter NodePool (scale subresource: spec.replicas, status.nodes) and lists NodeOverlays', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'kubectl-scale-'));
    try {
      const file = join(dir, 'pool.yaml');
      await writeFile(
        file,
        [
          'apiVersion: karpenter.sh/v1',
          'kind: NodePool',
          'metadata: { name: fixed }',
          'spec:',
          '  template: { spec: { nodeClassRef: { group: karpenter.k8s.aws, kind: EC2NodeClass, name: default } } }',
        ].join('\n'),
      );
      await kubectl('apply', '-f', file);
      expect(await kubectl('scale', 'nodepool', 'fixed', '--replicas=3')).toBe(
        'nodepool.karpenter.sh/fixed scaled\n',
      );
      expect(await kubectl('get', 'nodepool', 'fixed', '-o', 'jsonpath={.spec.replicas}')).toBe('3');
      await expect(kubectl('scale', 'nodepool', 'fixed', '--replicas=-1')).rejects.toThrow();
      await kubectl('scale', 'nodepool', 'fixed', '--replicas=0');
      expect(await kubectl('get', 'nodepool', 'fixed', '-o', 'jsonpath={.spec.replicas}')).toBe('0');
      await kubectl('delete', 'nodepool', 'fixed');
      await kubectl('apply', '-f', 'examples/node-overlay/nodeoverlay.yaml');
      expect(
        await kubectl('get', 'nodeoverlays', '--no-headers', '-o', 'custom-columns=NAME:.metadata.name'),
      ).toBe('savings-plan-m5\n');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
