/**
 * Per-call benchmark (`npm run bench:calls`): the CPU one call of each kind joiner makes costs in
 * the simulated cloud, end to end in one process: joiner's real adapters and SDK clients (signed
 * with a function's role credentials), HTTP over loopback, the account's IAM gate, the simulated
 * service (dynalite, fauxqs, the EventBridge bus and its rule delivery to SQS, the simulated EC2,
 * the simulated API server with RBAC, admission and its watchers), and back. Each row is the
 * process's CPU (user + system) divided by the calls made, after a warm-up; the calls run one after
 * another, so the wall time is about the CPU time on an idle machine.
 *
 * The clock is manual and latencies are off: the numbers are the per-call work, not the modeled
 * waits. The admission webhook is not installed (its call is a Lambda invocation of its own).
 *
 * Options: `--calls N` (per kind, default 300), `--json`. Numbers are printed, never asserted.
 */
import './lib/quiet-sdk.js';
import { createStateStore } from '../functions/adapters/store/create-state-store.js';
import { newNodeClaim } from '../functions/core/nodeclaim/create.js';
import type { NodeClaim } from '../functions/core/nodeclaim/nodeclaim.js';
import { silentLog } from '../functions/core/ports/log.js';
import { dependenciesFromEnv } from '../functions/handlers/runtime/dependencies.js';
import { startSimulatedCloud } from '../functions/simulator/cloud.js';
import { functionClock } from '../functions/simulator/runner/function-clock.js';
import { deployedAccount } from '../functions/simulator/stack/deployed-account.js';
import { claimInput } from '../test/builders/claims.js';

interface Row {
  readonly call: string;
  readonly calls: number;
  /** CPU microseconds per call (user + system, client and simulated service together). */
  readonly cpuMicros: number;
  /** Wall microseconds per call. */
  readonly wallMicros: number;
}

function parseArgs(argv: readonly string[]): { calls: number; json: boolean } {
  let calls = 300;
  let json = false;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--json') json = true;
    else if (arg === '--calls') calls = Number(argv[++i]);
    else throw new Error(`bench:calls: unknown argument ${arg} (use --calls <n>, --json)`);
  }
  if (!(Number.isInteger(calls) && calls > 0))
    throw new Error('bench:calls: --calls needs a positive whole number, e.g. --calls 300');
  return { calls, json };
}

async function measure(call: string, calls: number, run: (i: number) => Promise<unknown>): Promise<Row> {
  for (let i = 0; i < Math.min(30, calls); i++) await run(-1 - i);
  const cpu = process.cpuUsage();
  const wall = performance.now();
  for (let i = 0; i < calls; i++) await run(i);
  const used = process.cpuUsage(cpu);
  return {
    call,
    calls,
    cpuMicros: Math.round((used.user + used.system) / calls),
    wallMicros: Math.round(((performance.now() - wall) * 1000) / calls),
  };
}

const CLUSTER = 'joiner-sim';
const REGION = 'us-west-2';

async function main(): Promise<void> {
  const { calls, json } = parseArgs(process.argv.slice(2));
  let now = Date.UTC(2026, 0, 1);
  const account = await deployedAccount({ clusterName: CLUSTER, region: REGION, clock: () => now });
  const cloud = await startSimulatedCloud({ clusterName: CLUSTER, region: REGION, account });
  now = cloud.clock.now();
  const rows: Row[] = [];
  try {
    const env = cloud.envFor('disruption');
    const deps = dependenciesFromEnv(env, { clock: functionClock(cloud.clock), log: silentLog });
    // The state store without the NodeClaim resource mirror the handlers wrap it in: DynamoDB only.
    const store = createStateStore({
      tableName: cloud.tableName,
      region: REGION,
      endpoint: cloud.endpoints.dynamodb,
      credentials: {
        accessKeyId: env.AWS_ACCESS_KEY_ID ?? '',
        secretAccessKey: env.AWS_SECRET_ACCESS_KEY ?? '',
      },
    });
    const node = 'ip-10-0-0-1.us-west-2.compute.internal';
    await cloud.kube.store.apply({
      apiVersion: 'v1',
      kind: 'Node',
      metadata: { name: node, labels: { 'kubernetes.io/hostname': node } },
      spec: {},
      status: { allocatable: { cpu: '64', memory: '256Gi', pods: '1000' } },
    });
    const pods = 20;
    const podOf = (i: number) => ({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: `p-${i}`, namespace: 'default', labels: { app: 'bench' } },
      spec: {
        nodeName: node,
        containers: [{ name: 'c', image: 'pause', resources: { requests: { cpu: '10m' } } }],
      },
      status: { phase: 'Running' },
    });
    for (let i = 0; i < pods; i++) await cloud.kube.store.apply(podOf(i));

    const claims: NodeClaim[] = [];
    const claimOf = (i: number) =>
      newNodeClaim(
        claimInput(`bench-${i}`, {
          instanceType: 'm6g.large',
          zone: `${REGION}a`,
          capacityType: 'on-demand',
          price: 0.077,
        }),
        now,
      );
    rows.push(
      await measure('DynamoDB PutItem (conditional create)', calls, async (i) => {
        const claim = claimOf(i + 100_000);
        await store.createNodeClaim(claim);
        if (i >= 0 && claims.length < 50) claims.push(claim);
      }),
    );
    rows.push(
      await measure('DynamoDB GetItem', calls, (i) =>
        store.getNodeClaim(claims[Math.abs(i) % claims.length].id),
      ),
    );
    let versions = (await Promise.all(claims.map((c) => store.getNodeClaim(c.id)))).filter(
      (c): c is NodeClaim => c !== undefined,
    );
    rows.push(
      await measure('DynamoDB UpdateItem (conditional put)', calls, async (i) => {
        const at = Math.abs(i) % versions.length;
        const updated = await store.updateNodeClaim({ ...versions[at], launchAttempts: i + 100 });
        versions = versions.map((c, j) => (j === at ? updated : c));
      }),
    );
    rows.push(
      await measure(`DynamoDB Query (list live claims, ${calls + 30} items)`, Math.max(10, calls / 10), () =>
        store.listNodeClaims(['Pending']),
      ),
    );
    rows.push(
      await measure('EventBridge PutEvents (1 entry, rule to SQS)', calls, (i) =>
        deps.events.publish([{ detailType: 'PodGone', detail: { namespace: 'default', name: `p-${i}` } }]),
      ),
    );
    rows.push(
      await measure('SQS SendMessage (timer)', calls, (i) =>
        deps.timers.schedule(claims[Math.abs(i) % claims.length].id, now + 60_000),
      ),
    );
    rows.push(await measure('EC2 DescribeInstances (by tag, none)', calls, () => deps.cloud.list()));
    rows.push(await measure('Kubernetes GET node', calls, () => deps.cluster.getNode(node)));
    rows.push(
      await measure('Kubernetes PATCH node (label)', calls, (i) =>
        deps.cluster.patchNode(node, { labels: { bench: `v${i + 100}` } }),
      ),
    );
    rows.push(
      await measure(`Kubernetes LIST pods on a node (${pods} pods)`, calls, () =>
        deps.cluster.listPodsOnNode(node),
      ),
    );
    const evictions = Math.min(calls, 100);
    const other = 'ip-10-0-0-2.us-west-2.compute.internal';
    await cloud.kube.store.apply({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'evict' } });
    for (let i = 0; i < evictions + 30; i++)
      await cloud.kube.store.apply({
        ...podOf(i),
        metadata: { name: `e-${i}`, namespace: 'evict' },
        spec: { ...podOf(i).spec, nodeName: other },
      });
    let evicted = 0;
    rows.push(
      await measure('Kubernetes eviction (pod on a node)', evictions, () =>
        deps.cluster.evictPod('evict', `e-${evicted++}`),
      ),
    );
  } finally {
    await cloud.close();
  }
  if (json) {
    console.log(JSON.stringify(rows, null, 2));
    return;
  }
  console.log(
    `${'call'.padEnd(52)} ${'calls'.padStart(6)} ${'CPU µs/call'.padStart(12)} ${'wall µs/call'.padStart(13)}`,
  );
  for (const r of rows)
    console.log(
      `${r.call.padEnd(52)} ${String(r.calls).padStart(6)} ${String(r.cpuMicros).padStart(12)} ${String(r.wallMicros).padStart(13)}`,
    );
}

await main();
