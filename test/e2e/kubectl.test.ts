/**
 * The real kubectl against `joiner sim up`'s system (the simulated cloud with joiner installed):
 * the commands a Karpenter user types, as they type them (no --validate=false).
 */
import { AsyncLocalStorage } from 'node:async_hooks';
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
/** joiner's log lines, with a line for each call the account's IAM refused. */
const log: string[] = [];

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

/** Runs kubectl without throwing: its exit code, stdout and stderr (the API server runs in this process, so never spawnSync). */
async function kubectlOutcome(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(KUBECTL, args, {
      encoding: 'utf8',
      env: { ...process.env, KUBECONFIG: cloud.kubeconfigPath, KUBECACHEDIR: cacheDir },
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code?: number; stdout?: string; stderr?: string };
    return { code: typeof e.code === 'number' ? e.code : -1, stdout: e.stdout ?? '', stderr: e.stderr ?? '' };
  }
}

/**
 * Wall milliseconds between two tries of {@link eventually}: each try starts a kubectl process
 * (tens of milliseconds of CPU); every state waited for below lasts longer than that.
 */
const POLL_MS = 500;
/** Wall milliseconds between two looks at the API server's objects in this process (no process starts). */
const GATE_POLL_MS = 50;

/**
 * Waits until kubectl's `check` holds. With a `gate` (the same state read from the API server's
 * objects in this process, which kubectl's output cannot show before it holds), kubectl is started
 * only once the gate holds instead of every {@link POLL_MS} meanwhile: the check is the same, run
 * less often.
 */
async function eventually(
  check: () => Promise<boolean>,
  what: string,
  timeoutMs = 30_000,
  gate?: () => boolean,
): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  while (gate && !gate() && performance.now() < deadline)
    await new Promise((r) => setTimeout(r, GATE_POLL_MS));
  do {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, POLL_MS));
  } while (performance.now() < deadline);
  throw new Error(`timed out waiting for ${what}`);
}

interface Listed {
  metadata: { name: string; labels?: Record<string, string> };
  spec?: { nodeName?: string };
  status?: {
    phase?: string;
    nodes?: number | string;
    resources?: { nodes?: string };
    conditions?: { type: string; status: string; reason?: string }[];
  };
}
/** The objects of a kind as the API server holds them (read-only). */
const objects = (
  apiVersion: string,
  kind: string,
  options: { namespace?: string; labelSelector?: string } = {},
) => cloud.kube.store.view<Listed>(apiVersion, kind, options);
const conditionOf = (o: Listed | undefined, type: string) =>
  o?.status?.conditions?.find((c) => c.type === type);
const nodePool = (name: string) =>
  objects('karpenter.sh/v1', 'NodePool').find((p) => p.metadata.name === name);
/** The nodes the pods of `app` run on, once `count` of them run (else none). */
const runningOn = (app: string, count: number): string[] => {
  const pods = objects('v1', 'Pod', { namespace: 'default', labelSelector: `app=${app}` });
  return pods.length === count && pods.every((p) => p.status?.phase === 'Running' && p.spec?.nodeName)
    ? [...new Set(pods.map((p) => String(p.spec?.nodeName)))]
    : [];
};

/**
 * What woke the disruption invocation running now: `sweep` (the 1-minute schedule) or `timer` (a
 * message of the timers queue, such as the wake-up a deletion hint schedules).
 */
const disruptionTrigger = new AsyncLocalStorage<'sweep' | 'timer'>();
/** The disruption function's drain starts (Karpenter's `disrupting node(s) via delete` line), with their trigger. */
const drainStarts: { trigger: string; line: string }[] = [];

/** joiner's log sink: keeps every line, and notes which invocation started each drain. */
function onLog(line: string): void {
  log.push(line);
  if (line.includes(' disruption disrupting node(s) via delete'))
    drainStarts.push({ trigger: disruptionTrigger.getStore() ?? 'none', line });
}

/**
 * Wraps the disruption function's real handler so its log lines know what invoked it (the
 * handler runs unchanged; only the invocation's trigger is remembered for {@link onLog}).
 */
function observeDisruptionTriggers(): void {
  const handler = cloud.runner.handler('disruption');
  if (!handler) throw new Error('the system runs no disruption function');
  cloud.runner.setHandler('disruption', (event, context) =>
    disruptionTrigger.run('Records' in event ? 'timer' : 'sweep', () => handler(event, context)),
  );
}

/**
 * Runs `kubectl delete KIND NAME` and returns its output and the virtual time the API server marked
 * the object deleted (a slow kubectl start on a loaded host is not counted: the system's clock
 * runs meanwhile).
 */
async function deleteObject(kind: 'nodeclaim' | 'node', name: string): Promise<{ out: string; at: number }> {
  let at: number | undefined;
  const stop = cloud.kube.store.api.store.subscribe((event) => {
    if (at === undefined && event.object.metadata.name === name && event.object.metadata.deletionTimestamp)
      at = cloud.clock.now();
  });
  try {
    const out = await kubectl('delete', kind, name);
    if (at === undefined) throw new Error(`the API server never marked ${kind} ${name} deleted`);
    return { out, at };
  } finally {
    stop();
  }
}

/** Resolves once a sweep of the disruption function (every virtual minute) has finished. */
async function afterASweep(): Promise<void> {
  const sweeps = () =>
    cloud.runner.invocations().filter((i) => i.functionName === 'disruption' && i.trigger === 'schedule')
      .length;
  const before = sweeps();
  for (let i = 0; i < 1_500 && sweeps() === before; i++) await new Promise((r) => setTimeout(r, 20));
}

/**
 * The drain of a deleted claim was started by the webhook's hint, within seconds of virtual time
 * of the delete: the lifecycle function armed the claim's deletion timer ("termination
 * requested"), and the disruption invocation woken by that timer's message, not a minute's sweep,
 * logged the drain's start. (The delete is sent just after a sweep, so the next one is a virtual
 * minute away; the sweep would also find the deletion, that is the hint's fallback.)
 */
async function expectDrainedAtOnce(claimId: string, deletedAt: number): Promise<void> {
  const stored = await cloud.stateStore.getNodeClaim(claimId);
  const startedAt = stored?.disruption?.startedAt;
  expect(stored?.disruption?.cause).toBe('deleted');
  expect(startedAt).toBeDefined();
  expect(Number(startedAt) - deletedAt).toBeLessThan(10_000);
  const ofClaim = (line: string) => line.includes(`"nodeclaim":"${claimId}"`);
  const requested = log.findIndex(
    (line) => line.includes(' lifecycle termination requested') && ofClaim(line),
  );
  expect(requested, 'the lifecycle function handled the deletion hint').toBeGreaterThanOrEqual(0);
  const starts = drainStarts.filter((s) => ofClaim(s.line));
  expect(
    starts.map((s) => s.trigger),
    starts.map((s) => s.line).join('\n'),
  ).toEqual(['timer']);
  expect(log.indexOf(starts[0].line)).toBeGreaterThan(requested);
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
    cloud = await startSystem({ catalog: smallCatalog, seed: 3, speed: 20, onLog });
    observeDisruptionTriggers();
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
    await eventually(
      async () => {
        const pods = await kubectl('get', 'pods', '--no-headers');
        return (
          pods.trim().split('\n').length === 3 &&
          pods.split('\n').every((l) => l === '' || l.includes('Running'))
        );
      },
      'three Running pods',
      undefined,
      () => runningOn('web', 3).length > 0,
    );
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
    // The pods run as soon as the node is Ready; the claim turns Ready once the lifecycle function
    // has handled the node's event and mirrored the claim, a moment later.
    await eventually(
      async () => / True /.test((await kubectl('get', 'nodeclaims')).split('\n')[1] ?? ''),
      'the first NodeClaim Ready',
      undefined,
      () => objects('joiner.sh/v1', 'NodeClaim').some((c) => conditionOf(c, 'Ready')?.status === 'True'),
    );
    const claims = await kubectl('get', 'nodeclaims');
    expect(header(claims)).toEqual(['NAME', 'TYPE', 'CAPACITY', 'ZONE', 'NODE', 'READY', 'AGE']);
    expect(claims.split('\n')[1]).toMatch(
      new RegExp(`^default-\\S+\\s+[cm]5\\.\\S+\\s+on-demand\\s+us-west-2\\w\\s+${nodeName}\\s+True\\s`),
    );
    // NodePool status comes with the sweep (every virtual minute).
    await eventually(
      async () => /default\s+default\s+1\s+True/.test(await kubectl('get', 'nodepools.karpenter.sh')),
      'NodePool status',
      undefined,
      () => {
        const pool = nodePool('default');
        return (
          String(pool?.status?.resources?.nodes) === '1' && conditionOf(pool, 'Ready')?.status === 'True'
        );
      },
    );
    const both = await kubectl('get', 'nodepools.karpenter.sh,nodeclaims');
    expect(both).toMatch(/nodepool\.karpenter\.sh\/default\s+default\s+1\s+True/);
    expect(both).toMatch(/nodeclaim\.joiner\.sh\/default-/);
    expect(await kubectl('get', 'ec2nodeclasses')).toMatch(/default\s+True/);
    for (const kind of ['nodepool.karpenter.sh', 'ec2nodeclass'])
      expect(
        await kubectl(
          'get',
          kind,
          'default',
          '-o',
          'jsonpath={.status.conditions[?(@.type=="ValidationSucceeded")].status}',
        ),
      ).toBe('True');

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
    await eventually(
      async () => (await podNodes()).length === 1,
      'the two pods Running on one node',
      undefined,
      () => runningOn('doomed', 2).length === 1,
    );
    const [first] = await podNodes();
    const firstInstance = instanceOf(first);
    const claim = await claimOf(first);
    expect(claim).toBeDefined();
    expect(await kubectl('get', 'node', first, '-o', 'jsonpath={.metadata.finalizers}')).toContain(
      'karpenter.sh/termination',
    );

    // kubectl waits until the finalizer is removed: the node was drained and terminated by then.
    await afterASweep();
    const claimDeleted = await deleteObject('nodeclaim', String(claim));
    expect(claimDeleted.out).toBe(`nodeclaim.joiner.sh "${claim}" deleted\n`);
    await expectDrainedAtOnce(String(claim), claimDeleted.at);
    await expect(kubectl('get', 'node', first)).rejects.toThrow(/not found/);
    expect(cloud.ec2.state.instances.get(firstInstance)?.state).toMatch(/shutting-down|terminated/);
    await eventually(
      async () => {
        const nodes = await podNodes();
        return nodes.length === 1 && nodes[0] !== first;
      },
      'the pods Running again on a new node',
      undefined,
      () => {
        const nodes = runningOn('doomed', 2);
        return nodes.length === 1 && nodes[0] !== first;
      },
    );
    const [second] = await podNodes();
    const secondInstance = instanceOf(second);
    const secondClaim = await claimOf(second);

    await afterASweep();
    const nodeDeleted = await deleteObject('node', second);
    expect(nodeDeleted.out).toBe(`node "${second}" deleted\n`);
    await expectDrainedAtOnce(String(secondClaim), nodeDeleted.at);
    expect(cloud.ec2.state.instances.get(secondInstance)?.state).toMatch(/shutting-down|terminated/);
    await eventually(
      async () => !(await kubectl('get', 'nodeclaims', '-o', 'name')).includes(String(secondClaim)),
      "the deleted node's nodeclaim gone",
      undefined,
      () => !objects('joiner.sh/v1', 'NodeClaim').some((c) => c.metadata.name === secondClaim),
    );
    await eventually(
      async () => {
        const nodes = await podNodes();
        return nodes.length === 1 && nodes[0] !== second;
      },
      'the pods Running on a third node',
      undefined,
      () => {
        const nodes = runningOn('doomed', 2);
        return nodes.length === 1 && nodes[0] !== second;
      },
    );
    await kubectl('delete', 'deployment', 'doomed');
  }, 300_000);

  it("a bare `nodepools` lists every pool joiner manages: managing Karpenter's kinds, joiner installs no NodePool kind of its own (it would come first in discovery and hide them); `kubectl get karpenter` and `kubectl get joiner` list them too", async () => {
    const dir = await mkdtemp(join(tmpdir(), 'kubectl-groups-'));
    const names = async (...args: string[]) =>
      (await kubectl('get', ...args, '-o', 'name')).split('\n').filter((l) => l !== '');
    try {
      const file = join(dir, 'pools.yaml');
      await writeFile(
        file,
        [
          'apiVersion: karpenter.sh/v1',
          'kind: NodePool',
          'metadata: { name: theirs }',
          'spec: { template: { spec: { nodeClassRef: { group: karpenter.k8s.aws, kind: EC2NodeClass, name: default } } } }',
        ].join('\n'),
      );
      await kubectl('apply', '-f', file);
      const pools = await names('nodepools');
      expect(pools).toContain('nodepool.karpenter.sh/theirs');
      expect(pools.every((p) => p.startsWith('nodepool.karpenter.sh/'))).toBe(true);
      expect(await names('nodepools.karpenter.sh')).toEqual(pools);
      const ours = join(dir, 'ours.yaml');
      await writeFile(ours, 'apiVersion: joiner.sh/v1\nkind: NodePool\nmetadata: { name: ours }\nspec: {}\n');
      // Validation on: kubectl looks a kind its OpenAPI v3 lacks up in the v2 document, finds no
      // schema there either, and the apply fails at the mapping, as against a real API server.
      expect((await kubectlOutcome('apply', '-f', ours)).stderr).toMatch(
        /no matches for kind "NodePool" in version "joiner\.sh\/v1"/,
      );
      // Categories span groups: every NodePool, NodeClass and NodeClaim, in one command.
      for (const category of ['karpenter', 'joiner']) {
        const listed = await names(category);
        expect(listed).toContain('nodepool.karpenter.sh/theirs');
      }
      const described = JSON.parse(await kubectl('get', '--raw', '/apis/karpenter.k8s.aws/v1')).resources as {
        name: string;
        shortNames?: string[];
        categories?: string[];
      }[];
      expect(described.find((r) => r.name === 'ec2nodeclasses')).toMatchObject({
        shortNames: ['ec2nc', 'ec2ncs'],
        categories: ['karpenter', 'joiner'],
      });
      await kubectl('delete', '-f', file);
      // Karpenter v1.1 and later serve v1 only, and so do the CRDs joiner installs in its place.
      const old = join(dir, 'v1beta1.yaml');
      await writeFile(
        old,
        'apiVersion: karpenter.sh/v1beta1\nkind: NodePool\nmetadata: { name: old }\nspec: {}\n',
      );
      const refused = await kubectlOutcome('apply', '-f', old);
      expect(refused.code).not.toBe(0);
      expect(refused.stderr).toMatch(/no matches for kind "NodePool" in version "karpenter\.sh\/v1beta1"/);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

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
          'nodepool.karpenter.sh',
          'broken',
          '-o',
          'jsonpath={.status.conditions[?(@.type=="NodeClassReady")].reason}',
        );
      await eventually(
        async () => (await reason()) === 'SubnetsNotFound',
        'NodeClassReady=False on the NodePool',
        undefined,
        () => conditionOf(nodePool('broken'), 'NodeClassReady')?.reason === 'SubnetsNotFound',
      );
      expect(await kubectl('get', 'nodepool.karpenter.sh', 'broken')).toMatch(/broken\s+broken\s+0\s+False/);
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
          'apiVersion: karpenter.sh/v1',
          'kind: NodePool',
          'metadata: { name: typo }',
          'spec:',
          '  weight: heavy',
          '  template: { spec: { nodeClassRef: { group: karpenter.k8s.aws, kind: EC2NodeClass, name: default } } }',
        ].join('\n'),
      );
      await expect(kubectl('apply', '-f', file)).rejects.toThrow(/spec\.weight.*must be of type integer/);
      await expect(kubectl('get', 'nodepools.karpenter.sh', 'typo')).rejects.toThrow(/not found/);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("refuses at apply what joiner refuses (schemas generated from joiner's): rc != 0 and the fields named", async () => {
    const dir = await mkdtemp(join(tmpdir(), 'kubectl-invalid-'));
    try {
      // joiner.sh's NodePool CRD (installed with karpenterKinds: ignore) has the same generated schema.
      for (const [group, kind, ref] of [
        ['karpenter.sh', 'NodePool', '{ group: karpenter.k8s.aws, kind: EC2NodeClass, name: default }'],
      ]) {
        const file = join(dir, `${group}.yaml`);
        await writeFile(
          file,
          [
            `apiVersion: ${group}/v1`,
            `kind: ${kind}`,
            'metadata: { name: invalid }',
            'spec:',
            '  limits: { cpu: "-5" }',
            '  template:',
            '    spec:',
            `      nodeClassRef: ${ref}`,
            '      requirements: [{ key: karpenter.sh/capacity-type, operator: Inn, values: [spot] }]',
          ].join('\n'),
        );
        const result = await kubectlOutcome('apply', '-f', file);
        expect(result.code, result.stdout).not.toBe(0);
        expect(result.stderr).toContain(`The NodePool "invalid" is invalid`);
        expect(result.stderr).toMatch(
          /spec\.template\.spec\.requirements\[0\]\.operator: Unsupported value: "Inn": supported values: "In", "NotIn"/,
        );
        expect(result.stderr).toMatch(
          /spec\.limits\.cpu: Invalid value: "-5": spec\.limits\.cpu in body should match/,
        );
        await expect(kubectl('get', `nodepools.${group}`, 'invalid')).rejects.toThrow(/not found/);
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('reports what gets through apply but not through joiner: ValidationSucceeded=False, Ready=False, a Warning event', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'kubectl-restricted-'));
    try {
      const file = join(dir, 'pool.yaml');
      await writeFile(
        file,
        [
          'apiVersion: karpenter.sh/v1',
          'kind: NodePool',
          'metadata: { name: restricted }',
          'spec:',
          '  template:',
          '    spec:',
          '      nodeClassRef: { group: karpenter.k8s.aws, kind: EC2NodeClass, name: default }',
          '      requirements: [{ key: karpenter.k8s.aws/capacity-reservation-id, operator: In, values: [cr-0123456789abcdef0] }]',
        ].join('\n'),
      );
      expect(await kubectl('apply', '-f', file)).toBe('nodepool.karpenter.sh/restricted created\n');
      const condition = (type: string, field: string) =>
        kubectl(
          'get',
          'nodepool.karpenter.sh',
          'restricted',
          '-o',
          `jsonpath={.status.conditions[?(@.type=="${type}")].${field}}`,
        );
      await eventually(
        async () => (await condition('ValidationSucceeded', 'status')) === 'False',
        'ValidationSucceeded=False',
        undefined,
        () => conditionOf(nodePool('restricted'), 'ValidationSucceeded')?.status === 'False',
      );
      expect(await condition('ValidationSucceeded', 'message')).toContain(
        'karpenter.k8s.aws/capacity-reservation-id" is not supported',
      );
      expect(await condition('Ready', 'status')).toBe('False');
      expect(await kubectl('get', 'nodepool.karpenter.sh', 'restricted')).toMatch(
        /restricted\s+default\s+\S*\s*False/,
      );
      const events = await kubectl('get', 'events', '--field-selector', 'involvedObject.name=restricted');
      expect(events).toMatch(
        /Warning\s+FailedValidation\s+nodepool\/restricted\s+.*capacity-reservation-id" is not supported/,
      );
      await kubectl('delete', '-f', file);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('kubectl scale nodepool: a static NodePool (Karpenter v1.8) keeps its replicas, up and down, and lists NodeOverlays', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'kubectl-scale-'));
    const poolNodesHeld = (count: number) => () =>
      objects('v1', 'Node', { labelSelector: 'karpenter.sh/nodepool=fixed' }).length === count;
    const poolNodes = async () =>
      (await kubectl('get', 'nodes', '-l', 'karpenter.sh/nodepool=fixed', '--no-headers', '-o', 'name'))
        .split('\n')
        .filter((l) => l !== '').length;
    try {
      const file = join(dir, 'pool.yaml');
      await writeFile(
        file,
        [
          'apiVersion: karpenter.sh/v1',
          'kind: NodePool',
          'metadata: { name: fixed }',
          'spec:',
          '  replicas: 1',
          '  limits: { nodes: 3 }',
          '  template:',
          '    spec:',
          '      nodeClassRef: { group: karpenter.k8s.aws, kind: EC2NodeClass, name: default }',
          '      requirements:',
          '        - { key: node.kubernetes.io/instance-type, operator: In, values: [m5.large] }',
          '        - { key: karpenter.sh/capacity-type, operator: In, values: [on-demand] }',
        ].join('\n'),
      );
      await kubectl('apply', '-f', file);
      await eventually(
        async () => (await poolNodes()) === 1,
        "the static pool's one node",
        120_000,
        poolNodesHeld(1),
      );
      expect(await kubectl('scale', 'nodepool.karpenter.sh', 'fixed', '--replicas=3')).toBe(
        'nodepool.karpenter.sh/fixed scaled\n',
      );
      expect(await kubectl('get', 'nodepool.karpenter.sh', 'fixed', '-o', 'jsonpath={.spec.replicas}')).toBe(
        '3',
      );
      await eventually(
        async () => (await poolNodes()) === 3,
        'three nodes after scaling to 3',
        120_000,
        poolNodesHeld(3),
      );
      await eventually(
        async () =>
          (await kubectl('get', 'nodepool.karpenter.sh', 'fixed', '-o', 'jsonpath={.status.nodes}')) === '3',
        'status.nodes 3',
        120_000,
        () => String(nodePool('fixed')?.status?.nodes) === '3',
      );
      await expect(kubectl('scale', 'nodepool.karpenter.sh', 'fixed', '--replicas=-1')).rejects.toThrow();
      await kubectl('scale', 'nodepool.karpenter.sh', 'fixed', '--replicas=1');
      await eventually(
        async () => (await poolNodes()) === 1,
        'one node after scaling to 1',
        120_000,
        poolNodesHeld(1),
      );
      // A static pool's nodes are never consolidated: the empty node stays.
      await new Promise((r) => setTimeout(r, 4_000));
      expect(await poolNodes()).toBe(1);
      await kubectl('delete', 'nodepool.karpenter.sh', 'fixed');
      await kubectl('apply', '-f', 'examples/node-overlay/nodeoverlay.yaml');
      expect(
        await kubectl('get', 'nodeoverlays', '--no-headers', '-o', 'custom-columns=NAME:.metadata.name'),
      ).toBe('savings-plan-m5\n');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 240_000);

  it("refuses a karpenter.sh NodeClaim created by hand (Karpenter's CRDs left behind, Karpenter gone): a Warning event and Launched=False on it, no node", async () => {
    const dir = await mkdtemp(join(tmpdir(), 'kubectl-nodeclaim-'));
    const crd = join(dir, 'crd.yaml');
    const claim = join(dir, 'claim.yaml');
    try {
      await writeFile(
        crd,
        [
          'apiVersion: apiextensions.k8s.io/v1',
          'kind: CustomResourceDefinition',
          'metadata: { name: nodeclaims.karpenter.sh }',
          'spec:',
          '  group: karpenter.sh',
          '  scope: Cluster',
          '  names: { plural: nodeclaims, singular: nodeclaim, kind: NodeClaim }',
          '  versions:',
          '    - name: v1',
          '      served: true',
          '      storage: true',
          '      subresources: { status: {} }',
          '      schema: { openAPIV3Schema: { type: object, x-kubernetes-preserve-unknown-fields: true } }',
        ].join('\n'),
      );
      await writeFile(
        claim,
        [
          'apiVersion: karpenter.sh/v1',
          'kind: NodeClaim',
          'metadata: { name: by-hand }',
          'spec:',
          '  nodeClassRef: { group: karpenter.k8s.aws, kind: EC2NodeClass, name: default }',
          '  requirements: [{ key: node.kubernetes.io/instance-type, operator: In, values: [c5.large] }]',
        ].join('\n'),
      );
      await kubectl('apply', '-f', crd);
      await eventually(
        async () => (await kubectlOutcome('get', 'nodeclaims.karpenter.sh')).code === 0,
        'the NodeClaim CRD served',
      );
      // Created just after a sweep, so the next one is a virtual minute away: the refusal must
      // come from the provisioner woken by the webhook's event, not from the sweep (its fallback).
      await afterASweep();
      await kubectl('apply', '-f', claim);
      const nodesBefore = await kubectl('get', 'nodes', '-o', 'name');
      const launched = () =>
        kubectl(
          'get',
          'nodeclaims.karpenter.sh',
          'by-hand',
          '-o',
          'jsonpath={.status.conditions[?(@.type=="Launched")].reason}',
        );
      await eventually(
        async () => (await launched()) === 'NotSupported',
        'Launched=False NotSupported',
        120_000,
      );
      expect(
        await kubectl(
          'get',
          'events',
          '--field-selector',
          'involvedObject.name=by-hand',
          '-o',
          'custom-columns=T:.type,R:.reason,M:.message',
          '--no-headers',
        ),
      ).toMatch(/^Warning\s+NotSupported\s+joiner does not launch NodeClaims created by hand/);
      const refusals = log.filter((l) => l.includes('refusing NodeClaim by-hand'));
      expect(refusals).toHaveLength(1);
      // At once: the webhook's event for the creation woke the provisioner (the sweep is the fallback).
      expect(refusals[0]).toContain(' provisioner ');
      expect(await kubectl('get', 'nodes', '-o', 'name')).toBe(nodesBefore);
      await kubectl('delete', '-f', claim);
      await kubectl('delete', '-f', crd);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 240_000);

  it("ran every case above with the account's IAM enforced and no call denied", () => {
    expect(log.length).toBeGreaterThan(0);
    expect(log.filter((line) => line.includes('IAM denied'))).toEqual([]);
  });
});
