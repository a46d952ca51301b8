/**
 * Resource amounts in canonical integer units: `cpu` in millicores, `memory` and
 * `ephemeral-storage` in bytes, `pods` and extended resources (e.g. `nvidia.com/gpu`) as counts.
 */
export type Resources = Record<string, number>;

/** Well-known resource names. */
export const CPU = 'cpu';
export const MEMORY = 'memory';
export const EPHEMERAL_STORAGE = 'ephemeral-storage';
export const PODS = 'pods';
export const GPU_NVIDIA = 'nvidia.com/gpu';
/** Elastic Fabric Adapter interfaces (the EFA device plugin's resource, as Karpenter names it). */
export const EFA = 'vpc.amazonaws.com/efa';
