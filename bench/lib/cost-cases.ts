/**
 * Seeded cases of the cost-quality benchmark: 1-3 NodePools over the bundled catalog (some limited
 * by arch, family, category or capacity type), and 2-6 deployments of mixed cpu/memory requests
 * (10-200 pods in all). Each deployment selects exactly one NodePool through its `bench/pool`
 * label, so a pod's pool is fixed and the optimum can be computed per pool.
 */
import type { Pod } from '../../functions/core/model/kube-objects.js';
import type { NodePool } from '../../functions/core/model/node-pool.js';
import type { Requirement } from '../../functions/core/model/requirement.js';
import { SeededRandom } from '../../functions/simulator/clock.js';
import { nodePool } from '../../test/builders/config.js';
import { mixedCase } from './mixed-cases.js';

/** The label every pool sets and every pod selects. */
export const POOL_LABEL = 'bench/pool';

/** One benchmark case. */
export interface CostCase {
  readonly id: number;
  readonly pools: readonly NodePool[];
  readonly pods: readonly Pod[];
  /** Short human description: pools and their restrictions, deployments. */
  readonly description: string;
}

const CPU_MILLIS = [100, 250, 500, 750, 1000, 1500, 2000, 3000, 4000];
const MEMORY_MI = [128, 256, 512, 1024, 1536, 2048, 3072, 4096, 6144, 8192, 12288, 16384];
const FAMILY_SETS = [
  ['c5', 'm5', 'r5'],
  ['m6i', 'm7i'],
  ['c6g', 'm6g', 'r6g'],
  ['c7i', 'm7i', 'r7i', 'c6a', 'm6a'],
  ['m5', 'm5d', 'm6a', 'm6i'],
  ['t3', 'm5', 'c5'],
];

interface Restriction {
  readonly label: string;
  readonly requirements: Requirement[];
}

function restriction(r: SeededRandom): Restriction {
  switch (r.int(0, 5)) {
    case 0:
      return { label: 'any', requirements: [] };
    case 1:
      return {
        label: 'arm64',
        requirements: [{ key: 'kubernetes.io/arch', operator: 'In', values: ['arm64'] }],
      };
    case 2:
      return {
        label: 'amd64',
        requirements: [{ key: 'kubernetes.io/arch', operator: 'In', values: ['amd64'] }],
      };
    case 3: {
      const families = FAMILY_SETS[r.int(0, FAMILY_SETS.length - 1)];
      return {
        label: `families ${families.join(',')}`,
        requirements: [{ key: 'karpenter.k8s.aws/instance-family', operator: 'In', values: families }],
      };
    }
    case 4:
      return {
        label: 'categories c,m,r; cpu < 33',
        requirements: [
          { key: 'karpenter.k8s.aws/instance-category', operator: 'In', values: ['c', 'm', 'r'] },
          { key: 'karpenter.k8s.aws/instance-cpu', operator: 'Lt', values: ['33'] },
        ],
      };
    default:
      return {
        label: 'no gpu, generation > 5',
        requirements: [
          { key: 'karpenter.k8s.aws/instance-gpu-count', operator: 'DoesNotExist', values: [] },
          { key: 'karpenter.k8s.aws/instance-generation', operator: 'Gt', values: ['5'] },
        ],
      };
  }
}

function capacityTypes(r: SeededRandom): string[] {
  const roll = r.int(0, 3);
  return roll === 0 ? ['on-demand'] : roll === 1 ? ['spot'] : ['spot', 'on-demand'];
}

function pools(r: SeededRandom, count: number): { pools: NodePool[]; labels: string[] } {
  const out: NodePool[] = [];
  const labels: string[] = [];
  for (let i = 0; i < count; i++) {
    const name = `pool-${i + 1}`;
    const rest = restriction(r);
    const ct = capacityTypes(r);
    out.push(
      nodePool({
        name,
        weight: count - i,
        labels: { [POOL_LABEL]: name },
        requirements: [
          ...rest.requirements,
          { key: 'karpenter.sh/capacity-type', operator: 'In', values: ct },
          { key: 'kubernetes.io/os', operator: 'In', values: ['linux'] },
        ],
      }),
    );
    labels.push(`${name}[${rest.label}; ${ct.join('+')}]`);
  }
  return { pools: out, labels };
}

function deploymentPods(
  caseId: number,
  index: number,
  replicas: number,
  pool: string,
  cpu: number,
  memory: number,
): Pod[] {
  return Array.from({ length: replicas }, (_, k) => ({
    metadata: {
      name: `c${caseId}-d${index}-${String(k).padStart(3, '0')}`,
      namespace: 'bench',
      labels: { app: `d${index}` },
    },
    spec: {
      nodeSelector: { [POOL_LABEL]: pool },
      containers: [{ name: 'app', resources: { requests: { cpu: `${cpu}m`, memory: `${memory}Mi` } } }],
    },
  }));
}

/** The uniform cases (1-32); the mixed ones follow (see mixed-cases.ts). */
export const UNIFORM_CASES = 32;

/** Builds case `id` (deterministic for a given id). */
export function costCase(id: number): CostCase {
  if (id > UNIFORM_CASES) return mixedCase(id);
  const r = new SeededRandom(1000 + id * 7919);
  const poolCount = r.int(1, 3);
  const built = pools(r, poolCount);
  const total = r.int(10, 200);
  const deployments = r.int(2, 6);
  const pods: Pod[] = [];
  const shapes: string[] = [];
  let left = total;
  for (let d = 0; d < deployments && left > 0; d++) {
    const replicas =
      d === deployments - 1
        ? left
        : Math.max(1, Math.min(left, r.int(1, Math.ceil((2 * total) / deployments))));
    left -= replicas;
    const pool = built.pools[r.int(0, poolCount - 1)].name;
    const cpu = r.pick(CPU_MILLIS);
    const memory = r.pick(MEMORY_MI);
    pods.push(...deploymentPods(id, d, replicas, pool, cpu, memory));
    shapes.push(`${replicas}x(${cpu}m,${memory}Mi)->${pool}`);
  }
  return {
    id,
    pools: built.pools,
    pods,
    description: `${built.labels.join(' ')} | ${shapes.join(' ')}`,
  };
}
