/**
 * Pending-pod read benchmark: how long the provisioner takes to read N pending pods from the API
 * server, page by page (`limit` / `continue`, field selector `spec.nodeName=,status.phase=Pending`),
 * through the production Kubernetes adapter against the simulated API server over HTTP. The pods
 * are Karpenter's benchmark mix, marked `PodScheduled=False/Unschedulable` as the kube-scheduler
 * leaves them. The API server runs in the same process, so its work (filtering, paging, JSON)
 * counts in the figures too.
 *
 * `npm run bench:pending-read` (10,000, 50,000 and 100,000 pods), `-- --counts 100000`, `-- --json`.
 */
import './lib/quiet-sdk.js';
import { KubeConfig } from '@kubernetes/client-node';
import { kubeClients } from '../functions/adapters/kube/kube-clients.js';
import { KubeClusterApi } from '../functions/adapters/kube/kube-cluster-api.js';
import { PAGE_SIZE } from '../functions/adapters/kube/kube-lists.js';
import type { Catalog } from '../functions/core/model/instance-type.js';
import type { Pod } from '../functions/core/model/kube-objects.js';
import { silentLog } from '../functions/core/ports/log.js';
import { SeededRandom, VirtualClock } from '../functions/simulator/clock.js';
import { startKubeSimulator } from '../functions/simulator/kube/kube-simulator.js';
import { diversePods } from './karpenter-workload.js';

const COUNTS = [10000, 50000, 100000];
/** The read must fit the same budget as planning: 5 s for 100,000 pods. */
const TARGETS: Record<number, number> = { 100000: 5 };
const RUNS = 3;

const CATALOG: Catalog = { region: 'us-west-2', instanceTypes: [] };

/** One measured pod count. */
interface ReadRow {
  pods: number;
  pages: number;
  /** Median seconds of the reads. */
  seconds: number;
  bestSeconds: number;
  /** CPU seconds (user + system, client and API server) of the median read. */
  cpuSeconds: number;
  podsPerSecond: number;
  /** Heap growth while the pods read are held (MiB). */
  heapMiB: number;
  /** Seconds to create and mark the pods (setup, not measured). */
  setupSeconds: number;
  target?: number;
  meetsTarget?: boolean;
}

function pending(pod: Pod): Pod {
  return {
    ...pod,
    apiVersion: 'v1',
    kind: 'Pod',
    status: {
      phase: 'Pending',
      conditions: [{ type: 'PodScheduled', status: 'False', reason: 'Unschedulable', message: '0/0 nodes' }],
    },
  };
}

async function measure(count: number): Promise<ReadRow> {
  const clock = new VirtualClock();
  const sim = await startKubeSimulator({ clock, random: new SeededRandom(7), catalog: CATALOG });
  try {
    const setupStart = performance.now();
    for (const pod of diversePods(count)) await sim.store.apply(pending(pod));
    // The simulated kube-scheduler marks the pods it cannot place (no nodes): let it finish first,
    // so that the reads are measured alone.
    await sim.scheduleNow();
    await sim.scheduleNow();
    const setupSeconds = (performance.now() - setupStart) / 1000;
    const kc = new KubeConfig();
    kc.loadFromString(sim.kubeconfig());
    const api = new KubeClusterApi(async () => kubeClients(kc), { log: silentLog, clock });
    const times: number[] = [];
    const cpu: number[] = [];
    let heap = 0;
    for (let i = 0; i < RUNS; i++) {
      const before = process.memoryUsage().heapUsed;
      const start = performance.now();
      const startCpu = process.cpuUsage();
      const pods = await api.listPendingPods();
      times.push((performance.now() - start) / 1000);
      const used = process.cpuUsage(startCpu);
      cpu.push((used.user + used.system) / 1e6);
      heap = Math.max(heap, process.memoryUsage().heapUsed - before);
      if (pods.length !== count) throw new Error(`read ${pods.length} pending pods, expected ${count}`);
    }
    times.sort((a, b) => a - b);
    cpu.sort((a, b) => a - b);
    const seconds = times[Math.floor(times.length / 2)];
    const target = TARGETS[count];
    return {
      pods: count,
      pages: Math.ceil(count / PAGE_SIZE),
      seconds: Number(seconds.toFixed(4)),
      bestSeconds: Number(times[0].toFixed(4)),
      cpuSeconds: Number(cpu[Math.floor(cpu.length / 2)].toFixed(4)),
      podsPerSecond: Math.round(count / seconds),
      heapMiB: Number((Math.max(0, heap) / 2 ** 20).toFixed(1)),
      setupSeconds: Number(setupSeconds.toFixed(1)),
      ...(target === undefined ? {} : { target, meetsTarget: seconds <= target }),
    };
  } finally {
    await sim.close();
  }
}

function countsOf(argv: readonly string[]): number[] {
  const i = argv.indexOf('--counts');
  if (i < 0) return COUNTS;
  const counts = (argv[i + 1] ?? '').split(',').map(Number);
  if (counts.some((n) => !Number.isInteger(n) || n < 1))
    throw new Error(`--counts needs positive integers separated by commas, got '${argv[i + 1] ?? ''}'`);
  return counts;
}

async function main(): Promise<void> {
  const json = process.argv.includes('--json');
  const rows: ReadRow[] = [];
  for (const count of countsOf(process.argv)) {
    const row = await measure(count);
    rows.push(row);
    if (json) continue;
    const target =
      row.target === undefined ? '' : `  target <= ${row.target}s: ${row.meetsTarget ? 'met' : 'MISSED'}`;
    console.log(
      `${String(row.pods).padStart(6)} pending pods  ${row.pages} pages of ${PAGE_SIZE}  median ${row.seconds.toFixed(3)} s ` +
        `(cpu ${row.cpuSeconds.toFixed(3)} s)  best ${row.bestSeconds.toFixed(3)} s  ${row.podsPerSecond} pods/s  ` +
        `heap +${row.heapMiB} MiB  (setup ${row.setupSeconds} s)${target}`,
    );
  }
  if (json)
    console.log(JSON.stringify({ benchmark: 'pending-pod-read', pageSize: PAGE_SIZE, rows }, null, 2));
}

await main();
