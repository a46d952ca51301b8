import type { KubeletConfiguration } from '../model/node-class.js';
import { parseResource } from '../model/quantity.js';
import type { Resources } from '../model/resources.js';

const MIB = 2 ** 20;
const GIB = 2 ** 30;

/** Karpenter's kube-reserved CPU steps: [from millicores, to millicores, share in 1/10000]. */
const CPU_STEPS: readonly (readonly [number, number, number])[] = [
  [0, 1000, 600],
  [1000, 2000, 100],
  [2000, 4000, 50],
  [4000, Number.MAX_SAFE_INTEGER, 25],
];

/** Kube-reserved CPU in millicores: 6% of the first core, 1% of the second, 0.5% of cores 3-4, 0.25% above. */
export function kubeReservedCpuMillis(cpuMillis: number): number {
  let total = 0;
  for (const [from, to, share] of CPU_STEPS) {
    if (cpuMillis <= from) break;
    total += Math.floor(((Math.min(cpuMillis, to) - from) * share) / 10_000);
  }
  return total;
}

/** Kube-reserved memory in MiB: 11 MiB per pod plus 255 MiB. */
export function kubeReservedMemoryMiB(pods: number): number {
  return 11 * pods + 255;
}

/** Parses a kubelet resource map (`{cpu: "100m", memory: "1Gi"}`) into canonical units; names the bad key. */
export function parseResourceMap(
  values: Readonly<Record<string, string>> | undefined,
  where: string,
): Resources {
  const out: Resources = {};
  for (const [name, quantity] of Object.entries(values ?? {})) {
    try {
      out[name] = parseResource(name, quantity);
    } catch (error) {
      throw new Error(`kubelet ${where}.${name}: ${(error as Error).message}`);
    }
  }
  return out;
}

/** Default kube-reserved (cpu, memory, 1Gi ephemeral-storage) with the kubelet's kubeReserved on top. */
export function kubeReserved(cpuMillis: number, pods: number, kubelet?: KubeletConfiguration): Resources {
  return {
    cpu: kubeReservedCpuMillis(cpuMillis),
    memory: kubeReservedMemoryMiB(pods) * MIB,
    'ephemeral-storage': GIB,
    ...parseResourceMap(kubelet?.kubeReserved, 'kubeReserved'),
  };
}

/** One eviction signal as an amount: a percentage of capacity (rounded up) or a quantity. */
function signal(value: string, capacity: number, where: string): number {
  const text = value.trim();
  if (text.endsWith('%')) {
    const percent = Number(text.slice(0, -1));
    if (!Number.isFinite(percent) || percent < 0 || percent > 100) {
      throw new Error(`kubelet ${where}: "${value}" is not a percentage between 0% and 100%`);
    }
    return Math.ceil((capacity * percent) / 100);
  }
  try {
    return parseResource('memory', text);
  } catch (error) {
    throw new Error(`kubelet ${where}: ${(error as Error).message}`);
  }
}

/**
 * The eviction threshold kept free: memory.available 100Mi and nodefs.available 10% by default;
 * evictionHard overrides per signal. evictionSoft only warns before evicting and does not lower
 * allocatable (as Karpenter computes it since v1.9).
 */
export function evictionThreshold(
  memoryBytes: number,
  storageBytes: number,
  kubelet?: KubeletConfiguration,
): Resources {
  const out: Resources = { memory: 100 * MIB, 'ephemeral-storage': Math.ceil(storageBytes / 10) };
  const hard = kubelet?.evictionHard;
  const memory = hard?.['memory.available'];
  const nodefs = hard?.['nodefs.available'];
  if (memory !== undefined) out.memory = signal(memory, memoryBytes, 'evictionHard.memory.available');
  if (nodefs !== undefined) {
    out['ephemeral-storage'] = signal(nodefs, storageBytes, 'evictionHard.nodefs.available');
  }
  return out;
}
