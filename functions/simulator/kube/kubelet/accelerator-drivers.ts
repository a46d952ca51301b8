/**
 * Which accelerator drivers (and device plugins) an AMI carries, so the simulated kubelet
 * advertises an accelerator resource only when a real node booted from that image would: a GPU
 * type booted from the standard image reports no `nvidia.com/gpu`, and the pod that asked for one
 * stays pending, as it would in a real cluster.
 *
 * EKS-optimized images are recognised by name: the AL2023 `nvidia` and `neuron` variants, the AL2
 * GPU image (NVIDIA and Neuron), Bottlerocket's `-nvidia` variants and its standard x86_64 build
 * (which carries the Neuron driver). None carries an AMD or Habana driver. An image of any other
 * name is the user's own build and is taken to carry what its instance type needs.
 */

/** An accelerator driver family. */
export type AcceleratorDriver = 'nvidia' | 'neuron' | 'amd' | 'habana';

/** The extended resources each driver's device plugin advertises. */
const RESOURCES_OF: Readonly<Record<AcceleratorDriver, readonly string[]>> = {
  nvidia: ['nvidia.com/gpu'],
  neuron: ['aws.amazon.com/neuron', 'aws.amazon.com/neuroncore'],
  amd: ['amd.com/gpu'],
  habana: ['habana.ai/gaudi'],
};

const ALL: readonly AcceleratorDriver[] = ['nvidia', 'neuron', 'amd', 'habana'];

/** The drivers an image of this name carries (every driver for a name that is not EKS-optimized). */
export function driversOfImage(name: string | undefined): readonly AcceleratorDriver[] {
  if (name === undefined) return ALL;
  const al2023 = /^amazon-eks-node-al2023-(x86_64|arm64)-(standard|nvidia|neuron)-/.exec(name);
  if (al2023) return al2023[2] === 'standard' ? [] : [al2023[2] as AcceleratorDriver];
  if (/^amazon-eks-gpu-node-/.test(name)) return ['nvidia', 'neuron'];
  if (/^amazon-eks-(arm64-)?node-/.test(name)) return [];
  const bottlerocket = /^bottlerocket-aws-k8s-[0-9.]+(-nvidia)?-(x86_64|arm64)-/.exec(name);
  if (bottlerocket) {
    if (bottlerocket[1]) return ['nvidia'];
    return bottlerocket[2] === 'x86_64' ? ['neuron'] : [];
  }
  return ALL;
}

/** Whether the extended resource is an accelerator's (advertised by a driver's device plugin). */
function acceleratorDriverOf(resource: string): AcceleratorDriver | undefined {
  return ALL.find((d) => RESOURCES_OF[d].includes(resource));
}

/**
 * `resources` without the accelerator resources whose driver the image lacks (cpu, memory and
 * every other resource kept).
 */
export function withoutMissingDrivers<T>(
  resources: Readonly<Record<string, T>>,
  imageName: string | undefined,
): Record<string, T> {
  const drivers = driversOfImage(imageName);
  const out: Record<string, T> = {};
  for (const [name, amount] of Object.entries(resources)) {
    const driver = acceleratorDriverOf(name);
    if (driver === undefined || drivers.includes(driver)) out[name] = amount;
  }
  return out;
}
