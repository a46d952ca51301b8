/** Shared fixtures for the simulated Kubernetes tests: a small catalog and client setup. */
import { AppsV1Api, CoreV1Api, KubeConfig } from '@kubernetes/client-node';
import type { Catalog } from '../../../../functions/core/model/instance-type.js';
import { SeededRandom, VirtualClock } from '../../../../functions/simulator/clock.js';
import {
  type KubeSimulator,
  startKubeSimulator,
} from '../../../../functions/simulator/kube/kube-simulator.js';
import type { KubeTimings } from '../../../../functions/simulator/kube/timings.js';

/** Two instance types in three zones. */
export const catalog: Catalog = {
  region: 'us-west-2',
  instanceTypes: [
    {
      name: 'm5.large',
      vcpu: 2,
      memoryMiB: 8192,
      arch: 'amd64',
      maxEnis: 3,
      ipv4PerEni: 10,
      offerings: ['us-west-2a', 'us-west-2b', 'us-west-2c'].map((zone) => ({
        zone,
        capacityType: 'on-demand' as const,
        price: 0.096,
      })),
    },
    {
      name: 'm5.2xlarge',
      vcpu: 8,
      memoryMiB: 32768,
      arch: 'amd64',
      maxEnis: 4,
      ipv4PerEni: 15,
      offerings: ['us-west-2a', 'us-west-2b', 'us-west-2c'].map((zone) => ({
        zone,
        capacityType: 'on-demand' as const,
        price: 0.384,
      })),
    },
  ],
};

/** A started simulator with its clock and clients. */
export interface Harness {
  readonly sim: KubeSimulator;
  readonly clock: VirtualClock;
  readonly kc: KubeConfig;
  readonly core: CoreV1Api;
  readonly apps: AppsV1Api;
}

/** Starts a simulator and client-node clients pointed at it. */
export async function startHarness(timings?: Partial<KubeTimings>, historyLimit?: number): Promise<Harness> {
  const clock = new VirtualClock();
  const sim = await startKubeSimulator({
    clock,
    random: new SeededRandom(7),
    catalog,
    timings,
    historyLimit,
  });
  const kc = new KubeConfig();
  kc.loadFromString(sim.kubeconfig());
  return { sim, clock, kc, core: kc.makeApiClient(CoreV1Api), apps: kc.makeApiClient(AppsV1Api) };
}

/** A pod with cpu/memory requests. */
export function podBody(name: string, labels: Record<string, string> = {}, cpu = '100m') {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: 'default', labels },
    spec: { containers: [{ name: 'app', image: 'nginx', resources: { requests: { cpu, memory: '64Mi' } } }] },
  };
}

/** A Ready node of the given allocatable. */
export function nodeBody(
  name: string,
  opts: { cpu?: string; memory?: string; labels?: Record<string, string> } = {},
) {
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: { name, labels: { 'kubernetes.io/hostname': name, ...opts.labels } },
    spec: {},
    status: {
      capacity: { cpu: opts.cpu ?? '4', memory: opts.memory ?? '16Gi', pods: '110' },
      allocatable: { cpu: opts.cpu ?? '4', memory: opts.memory ?? '16Gi', pods: '110' },
      conditions: [{ type: 'Ready', status: 'True' }],
    },
  };
}

/** Polls `check` (advancing real time a little) until it returns a value. */
export async function eventually<T>(
  check: () => T | undefined | Promise<T | undefined>,
  what: string,
  tries = 200,
): Promise<T> {
  for (let i = 0; i < tries; i++) {
    const v = await check();
    if (v !== undefined && v !== false) return v;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error(`timed out waiting for ${what}`);
}
