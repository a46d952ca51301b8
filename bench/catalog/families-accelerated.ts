import { ABC, ALL, type FamilyFacts } from './family-facts.js';

/**
 * Public facts of the bundled catalog's GPU and Neuron accelerated families (g, p, inf).
 * The row format and the sources are in `family-facts.ts`.
 */
// biome-ignore format: a table reads better one size per cell
export const ACCELERATED_FAMILIES: readonly FamilyFacts[] = [
  {
    family: 'g4dn', arch: 'amd64', hypervisor: 'nitro', encryptionInTransit: true, zones: ALL, spotDiscount: 0.62, cpu: ['Intel', 2500], efa: { '8xlarge': 1, '12xlarge': 1, '16xlarge': 1, metal: 1 },
    gpu: { manufacturer: 'NVIDIA', name: 'T4', memoryMiB: 16384 },
    sizes: [
      ['xlarge', 4, 16, 3, 10, 5000, 0.526, 125, 1], ['2xlarge', 8, 32, 3, 10, 10000, 0.752, 225, 1],
      ['4xlarge', 16, 64, 3, 10, 20000, 1.204, 225, 1], ['8xlarge', 32, 128, 4, 15, 50000, 2.176, 900, 1],
      ['12xlarge', 48, 192, 8, 30, 50000, 3.912, 900, 4], ['16xlarge', 64, 256, 4, 15, 50000, 4.352, 900, 1],
      ['metal', 96, 384, 15, 50, 100000, 7.824, 1800, 8],
    ],
  },
  {
    family: 'g5', arch: 'amd64', hypervisor: 'nitro', encryptionInTransit: true, zones: ABC, spotDiscount: 0.55, cpu: ['AMD', 3300], efa: { '8xlarge': 1, '12xlarge': 1, '16xlarge': 1, '24xlarge': 1, '48xlarge': 1 },
    gpu: { manufacturer: 'NVIDIA', name: 'A10G', memoryMiB: 22888 },
    sizes: [
      ['xlarge', 4, 16, 4, 15, 2500, 1.006, 250, 1], ['2xlarge', 8, 32, 4, 15, 5000, 1.212, 450, 1],
      ['4xlarge', 16, 64, 8, 30, 10000, 1.624, 600, 1], ['8xlarge', 32, 128, 8, 30, 25000, 2.448, 900, 1],
      ['12xlarge', 48, 192, 15, 50, 40000, 5.672, 3800, 4], ['16xlarge', 64, 256, 8, 30, 25000, 4.096, 1900, 1],
      ['24xlarge', 96, 384, 15, 50, 50000, 8.144, 3800, 4], ['48xlarge', 192, 768, 7, 50, 100000, 16.288, 7600, 8],
    ],
  },
  {
    family: 'p3', arch: 'amd64', hypervisor: 'xen', encryptionInTransit: false, zones: ABC, spotDiscount: 0.68, cpu: ['Intel', 2700],
    gpu: { manufacturer: 'NVIDIA', name: 'V100', memoryMiB: 16384 },
    sizes: [
      ['2xlarge', 8, 61, 4, 15, 2500, 3.06, undefined, 1], ['8xlarge', 32, 244, 8, 30, 10000, 12.24, undefined, 4],
      ['16xlarge', 64, 488, 8, 30, 25000, 24.48, undefined, 8],
    ],
  },
  {
    // 4 network cards of 15 ENIs each; one EFA per card.
    family: 'p4d', arch: 'amd64', hypervisor: 'nitro', encryptionInTransit: true, zones: ABC, spotDiscount: 0.6, cpu: ['Intel', 3000], networkCards: { '24xlarge': 4 }, efa: { '24xlarge': 4 },
    gpu: { manufacturer: 'NVIDIA', name: 'A100', memoryMiB: 40960 },
    sizes: [['24xlarge', 96, 1152, 60, 50, 400000, 21.957642, 8000, 8]],
  },
  {
    // 32 network cards of 2 ENIs each; one EFA per card.
    family: 'p5', arch: 'amd64', hypervisor: 'nitro', encryptionInTransit: true, zones: ABC, spotDiscount: 0.55, cpu: ['AMD', 3600], networkCards: { '48xlarge': 32 }, efa: { '48xlarge': 32 },
    gpu: { manufacturer: 'NVIDIA', name: 'H100', memoryMiB: 81920 },
    sizes: [['48xlarge', 192, 2048, 64, 50, 3200000, 55.04, 30400, 8]],
  },
  {
    // Neuron accelerators (the row's last cell counts Inferentia2 devices; 2 NeuronCores each).
    family: 'inf2', arch: 'amd64', hypervisor: 'nitro', encryptionInTransit: true, zones: ABC, spotDiscount: 0.6, cpu: ['AMD', 3600],
    accelerator: { manufacturer: 'AWS', name: 'Inferentia2', coresPerDevice: 2 },
    sizes: [
      ['xlarge', 4, 16, 4, 15, 2083, 0.7582, undefined, 1], ['8xlarge', 32, 128, 8, 30, 16667, 1.96786, undefined, 1],
      ['24xlarge', 96, 384, 15, 50, 50000, 6.49063, undefined, 6],
      ['48xlarge', 192, 768, 15, 50, 100000, 12.98127, undefined, 12],
    ],
  },
];
