/**
 * Karpenter's scheduling benchmark workload, reproduced: 400 `fake-it-i` instance types and the
 * "diverse" pod mix (generic, zone and hostname topology spread, hostname and zone pod affinity,
 * hostname anti-affinity), with seeded random requests and labels.
 */
import type { ResolvedInstanceType } from '../functions/core/model/instance-type.js';
import type { Pod, PodAffinityTerm, TopologySpreadConstraint } from '../functions/core/model/kube-objects.js';
import { SeededRandom } from '../functions/simulator/clock.js';

const GI = 2 ** 30;
const MI = 2 ** 20;
const ZONE = 'topology.kubernetes.io/zone';
const HOSTNAME = 'kubernetes.io/hostname';

/** `fake-it-i`: i+1 vCPU, 2(i+1) GiB, 10(i+1) pods; kube-reserved 100m / 10Mi; spot in zones 1-2, on-demand in 1-3. */
export function fakeInstanceTypes(count = 400): ResolvedInstanceType[] {
  return Array.from({ length: count }, (_, i) => {
    const cpu = i + 1;
    const memory = 2 * cpu * GI;
    const price = 0.1 * cpu + (0.1 * memory) / 1e9;
    const offer = (zone: string, capacityType: 'spot' | 'on-demand') => ({
      zone,
      capacityType,
      price,
      available: true,
    });
    return {
      name: `fake-it-${i}`,
      labels: {
        'node.kubernetes.io/instance-type': `fake-it-${i}`,
        'kubernetes.io/arch': 'amd64',
        'kubernetes.io/os': 'linux',
        integer: String(cpu),
        size: cpu > 4 && memory > 8 * GI ? 'large' : 'small',
      },
      capacity: { cpu: cpu * 1000, memory, pods: 10 * cpu },
      allocatable: { cpu: cpu * 1000 - 100, memory: memory - 10 * MI, pods: 10 * cpu },
      offerings: [
        offer('test-zone-1', 'spot'),
        offer('test-zone-2', 'spot'),
        offer('test-zone-1', 'on-demand'),
        offer('test-zone-2', 'on-demand'),
        offer('test-zone-3', 'on-demand'),
      ],
    };
  });
}

const LABEL_VALUES = ['a', 'b', 'c', 'd', 'e', 'f', 'g'];
const CPU_MILLIS = [100, 250, 500, 1000, 1500];
const MEMORY_MI = [100, 256, 512, 1024, 2048, 4096];

/** Generates the diverse pods of Karpenter's benchmark. */
export class DiversePods {
  private readonly random: SeededRandom;
  private n = 0;

  constructor(seed = 42) {
    this.random = new SeededRandom(seed);
  }

  private value(): string {
    return this.random.pick(LABEL_VALUES);
  }

  private pod(labels: Record<string, string>, extra: Partial<Pod['spec']> = {}): Pod {
    const cpu = `${this.random.pick(CPU_MILLIS)}m`;
    const memory = `${this.random.pick(MEMORY_MI)}Mi`;
    return {
      metadata: { name: `pod-${String(++this.n).padStart(6, '0')}`, namespace: 'default', labels },
      spec: { containers: [{ name: 'app', resources: { requests: { cpu, memory } } }], ...extra },
    };
  }

  generic(count: number): Pod[] {
    return Array.from({ length: count }, () => this.pod({ 'my-label': this.value() }));
  }

  spread(count: number, topologyKey: string): Pod[] {
    return Array.from({ length: count }, () => {
      const labels = { 'my-label': this.value() };
      const constraint: TopologySpreadConstraint = {
        maxSkew: 1,
        topologyKey,
        whenUnsatisfiable: 'DoNotSchedule',
        labelSelector: { matchLabels: { 'my-label': this.value() } },
      };
      return this.pod(labels, { topologySpreadConstraints: [constraint] });
    });
  }

  affinity(count: number, topologyKey: string): Pod[] {
    return Array.from({ length: count }, () => {
      const labels = { 'my-affininity': this.value() };
      const term: PodAffinityTerm = {
        topologyKey,
        labelSelector: { matchLabels: { 'my-affininity': this.value() } },
      };
      return this.pod(labels, {
        affinity: { podAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [term] } },
      });
    });
  }

  antiAffinity(count: number, topologyKey: string): Pod[] {
    return Array.from({ length: count }, () => {
      const term: PodAffinityTerm = { topologyKey, labelSelector: { matchLabels: { app: 'nginx' } } };
      return this.pod(
        { app: 'nginx' },
        { affinity: { podAntiAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [term] } } },
      );
    });
  }
}

/** The benchmark mix for `count` pods: six equal parts, the remainder generic. */
export function diversePods(count: number, seed = 42): Pod[] {
  const g = new DiversePods(seed);
  const part = Math.floor(count / 6);
  const pods = [
    ...g.generic(part),
    ...g.spread(part, ZONE),
    ...g.spread(part, HOSTNAME),
    ...g.affinity(part, HOSTNAME),
    ...g.affinity(part, ZONE),
    ...g.antiAffinity(part, HOSTNAME),
  ];
  return [...pods, ...g.generic(count - pods.length)];
}
