/**
 * Heterogeneous cost-quality cases (ids 33-48): one NodePool whose pods have different shapes and
 * different but overlapping selectors, where packing one shape first can strand the other.
 * Four kinds, four seeds each:
 * - memory-heavy + CPU-heavy deployments, one selecting categories r/m, the other c/m;
 * - overlapping selectors (cpu < 17, generation > 5, a family list, no selector);
 * - GPU pods (`nvidia.com/gpu: 1`) next to CPU pods in a pool with GPU and general types;
 * - arm64-only, amd64-only and multi-arch pods in a pool of both architectures.
 * Every pod selects the pool with its `bench/pool` label, so the MILP optimum is per pool.
 */
import type { Pod } from '../../functions/core/model/kube-objects.js';
import type { Requirement } from '../../functions/core/model/requirement.js';
import { SeededRandom } from '../../functions/simulator/clock.js';
import { nodePool } from '../../test/builders/config.js';
import type { CostCase } from './cost-cases.js';
import { POOL_LABEL } from './cost-cases.js';

/** The first mixed case id (cases before it are the uniform ones). */
export const FIRST_MIXED_CASE = 33;
/** How many mixed cases there are. */
export const MIXED_CASES = 16;

const POOL = 'mixed';
const CATEGORY = 'karpenter.k8s.aws/instance-category';
const ARCH = 'kubernetes.io/arch';

interface Deployment {
  readonly label: string;
  readonly replicas: number;
  readonly cpu: number;
  readonly memoryMi: number;
  readonly gpu?: number;
  readonly selector: Requirement[];
}

function pods(caseId: number, deployments: readonly Deployment[]): Pod[] {
  return deployments.flatMap((d, index) =>
    Array.from({ length: d.replicas }, (_, k) => {
      const requests: Record<string, string> = { cpu: `${d.cpu}m`, memory: `${d.memoryMi}Mi` };
      if (d.gpu) requests['nvidia.com/gpu'] = String(d.gpu);
      const pod: Pod = {
        metadata: {
          name: `c${caseId}-d${index}-${String(k).padStart(3, '0')}`,
          namespace: 'bench',
          labels: { app: `d${index}` },
        },
        spec: {
          nodeSelector: { [POOL_LABEL]: POOL },
          containers: [{ name: 'app', resources: { requests, ...(d.gpu ? { limits: requests } : {}) } }],
          ...(d.selector.length > 0
            ? {
                affinity: {
                  nodeAffinity: {
                    requiredDuringSchedulingIgnoredDuringExecution: {
                      nodeSelectorTerms: [
                        {
                          matchExpressions: d.selector.map((r) => ({
                            key: r.key,
                            operator: r.operator as 'In',
                            values: [...r.values],
                          })),
                        },
                      ],
                    },
                  },
                },
              }
            : {}),
        },
      };
      return pod;
    }),
  );
}

function memoryAndCpu(r: SeededRandom): Deployment[] {
  return [
    {
      label: 'memory-heavy r/m',
      replicas: r.int(10, 60),
      cpu: r.pick([250, 500, 750]),
      memoryMi: r.pick([6144, 8192, 12288]),
      selector: [{ key: CATEGORY, operator: 'In', values: ['r', 'm'] }],
    },
    {
      label: 'cpu-heavy c/m',
      replicas: r.int(10, 60),
      cpu: r.pick([1500, 2000, 3000]),
      memoryMi: r.pick([512, 1024, 1536]),
      selector: [{ key: CATEGORY, operator: 'In', values: ['c', 'm'] }],
    },
    {
      label: 'balanced',
      replicas: r.int(0, 20),
      cpu: 1000,
      memoryMi: 4096,
      selector: [],
    },
  ];
}

function overlapping(r: SeededRandom): Deployment[] {
  return [
    {
      label: 'cpu < 17',
      replicas: r.int(10, 50),
      cpu: r.pick([500, 1000, 2000]),
      memoryMi: r.pick([1024, 2048, 4096]),
      selector: [{ key: 'karpenter.k8s.aws/instance-cpu', operator: 'Lt', values: ['17'] }],
    },
    {
      label: 'generation > 5',
      replicas: r.int(10, 50),
      cpu: r.pick([250, 750, 1500]),
      memoryMi: r.pick([3072, 6144, 8192]),
      selector: [{ key: 'karpenter.k8s.aws/instance-generation', operator: 'Gt', values: ['5'] }],
    },
    {
      label: 'families m6i,c6i,r6i,m7i',
      replicas: r.int(5, 40),
      cpu: r.pick([1000, 3000]),
      memoryMi: r.pick([2048, 12288]),
      selector: [
        { key: 'karpenter.k8s.aws/instance-family', operator: 'In', values: ['m6i', 'c6i', 'r6i', 'm7i'] },
      ],
    },
    { label: 'any', replicas: r.int(0, 30), cpu: 500, memoryMi: 1024, selector: [] },
  ];
}

function gpuAndCpu(r: SeededRandom): Deployment[] {
  return [
    {
      label: 'gpu',
      replicas: r.int(2, 12),
      cpu: r.pick([2000, 4000]),
      memoryMi: r.pick([8192, 16384]),
      gpu: 1,
      selector: [],
    },
    {
      label: 'cpu',
      replicas: r.int(10, 60),
      cpu: r.pick([250, 500, 1000]),
      memoryMi: r.pick([512, 1024, 2048]),
      selector: [],
    },
    {
      label: 'cpu on c/m',
      replicas: r.int(5, 30),
      cpu: r.pick([1500, 2000]),
      memoryMi: r.pick([2048, 4096]),
      selector: [{ key: CATEGORY, operator: 'In', values: ['c', 'm'] }],
    },
  ];
}

function armAndMulti(r: SeededRandom): Deployment[] {
  return [
    {
      label: 'arm64',
      replicas: r.int(10, 50),
      cpu: r.pick([500, 1000, 2000]),
      memoryMi: r.pick([1024, 2048, 4096]),
      selector: [{ key: ARCH, operator: 'In', values: ['arm64'] }],
    },
    {
      label: 'amd64',
      replicas: r.int(5, 40),
      cpu: r.pick([250, 750, 1500]),
      memoryMi: r.pick([2048, 6144]),
      selector: [{ key: ARCH, operator: 'In', values: ['amd64'] }],
    },
    {
      label: 'multi-arch',
      replicas: r.int(10, 60),
      cpu: r.pick([500, 1000]),
      memoryMi: r.pick([1024, 3072, 8192]),
      selector: [],
    },
  ];
}

const KINDS = [
  { name: 'memory+cpu', deployments: memoryAndCpu, pool: [] as Requirement[] },
  { name: 'overlapping selectors', deployments: overlapping, pool: [] as Requirement[] },
  {
    name: 'gpu+cpu',
    deployments: gpuAndCpu,
    pool: [
      {
        key: 'karpenter.k8s.aws/instance-family',
        operator: 'In',
        values: ['g4dn', 'g5', 'c6i', 'm6i', 'r6i', 'c5', 'm5'],
      },
    ] as Requirement[],
  },
  {
    name: 'arm64+multi-arch',
    deployments: armAndMulti,
    pool: [{ key: ARCH, operator: 'In', values: ['amd64', 'arm64'] }] as Requirement[],
  },
];

/** Builds mixed case `id` (FIRST_MIXED_CASE ... FIRST_MIXED_CASE + MIXED_CASES - 1). */
export function mixedCase(id: number): CostCase {
  const n = id - FIRST_MIXED_CASE;
  if (n < 0 || n >= MIXED_CASES)
    throw new Error(
      `mixed case ${id} does not exist (${FIRST_MIXED_CASE}-${FIRST_MIXED_CASE + MIXED_CASES - 1})`,
    );
  const kind = KINDS[n % KINDS.length];
  const r = new SeededRandom(5000 + id * 104729);
  const ct = r.int(0, 1) === 0 ? ['spot', 'on-demand'] : ['on-demand'];
  const deployments = kind.deployments(r).filter((d) => d.replicas > 0);
  const pool = nodePool({
    name: POOL,
    labels: { [POOL_LABEL]: POOL },
    requirements: [
      ...kind.pool,
      { key: 'karpenter.sh/capacity-type', operator: 'In', values: ct },
      { key: 'kubernetes.io/os', operator: 'In', values: ['linux'] },
    ],
  });
  const shapes = deployments.map(
    (d) => `${d.replicas}x(${d.cpu}m,${d.memoryMi}Mi${d.gpu ? `,${d.gpu}gpu` : ''})[${d.label}]`,
  );
  return {
    id,
    pools: [pool],
    pods: pods(id, deployments),
    description: `mixed ${kind.name}; ${ct.join('+')} | ${shapes.join(' ')}`,
  };
}
