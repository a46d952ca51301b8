import { ABC, ALL, type FamilyFacts } from './family-facts.js';

/**
 * Public facts of the bundled catalog's compute-optimized families (c).
 * The row format and the sources are in `family-facts.ts`.
 */
// biome-ignore format: a table reads better one size per cell
export const COMPUTE_FAMILIES: readonly FamilyFacts[] = [
  {
    // Previous generation: EC2 publishes no baseline bandwidth for the sizes below 8xlarge (0 = no label).
    family: 'c4', arch: 'amd64', hypervisor: 'xen', encryptionInTransit: false, zones: ABC, spotDiscount: 0.64, cpu: ['Intel', 2900],
    sizes: [
      ['large', 2, 3.75, 3, 10, 0, 0.1], ['xlarge', 4, 7.5, 4, 15, 0, 0.199], ['2xlarge', 8, 15, 4, 15, 0, 0.398],
      ['4xlarge', 16, 30, 8, 30, 0, 0.796], ['8xlarge', 36, 60, 8, 30, 10000, 1.591],
    ],
  },
  {
    family: 'c5', arch: 'amd64', hypervisor: 'nitro', encryptionInTransit: false, zones: ALL, spotDiscount: 0.6, cpu: ['Intel', 3400], clock: { '12xlarge': 3600, '24xlarge': 3600, metal: 3600 },
    sizes: [
      ['large', 2, 4, 3, 10, 750, 0.085], ['xlarge', 4, 8, 4, 15, 1250, 0.17], ['2xlarge', 8, 16, 4, 15, 2500, 0.34],
      ['4xlarge', 16, 32, 8, 30, 5000, 0.68], ['9xlarge', 36, 72, 8, 30, 12000, 1.53], ['12xlarge', 48, 96, 8, 30, 12000, 2.04],
      ['18xlarge', 72, 144, 15, 50, 25000, 3.06], ['24xlarge', 96, 192, 15, 50, 25000, 4.08],
      ['metal', 96, 192, 15, 50, 25000, 4.08],
    ],
  },
  {
    family: 'c5a', arch: 'amd64', hypervisor: 'nitro', encryptionInTransit: true, zones: ALL, spotDiscount: 0.58, cpu: ['AMD', 3300],
    sizes: [
      ['large', 2, 4, 3, 10, 750, 0.077], ['xlarge', 4, 8, 4, 15, 1250, 0.154],
      ['2xlarge', 8, 16, 4, 15, 2500, 0.308], ['4xlarge', 16, 32, 8, 30, 5000, 0.616],
      ['8xlarge', 32, 64, 8, 30, 10000, 1.232], ['12xlarge', 48, 96, 8, 30, 12000, 1.848],
      ['16xlarge', 64, 128, 15, 50, 20000, 2.464], ['24xlarge', 96, 192, 15, 50, 20000, 3.696],
    ],
  },
  {
    family: 'c5d', arch: 'amd64', hypervisor: 'nitro', encryptionInTransit: false, zones: ALL, spotDiscount: 0.6, cpu: ['Intel', 3400], clock: { '12xlarge': 3600, '24xlarge': 3600, metal: 3600 },
    sizes: [
      ['large', 2, 4, 3, 10, 750, 0.096, 50], ['xlarge', 4, 8, 4, 15, 1250, 0.192, 100],
      ['2xlarge', 8, 16, 4, 15, 2500, 0.384, 200], ['4xlarge', 16, 32, 8, 30, 5000, 0.768, 400],
      ['9xlarge', 36, 72, 8, 30, 12000, 1.728, 900], ['12xlarge', 48, 96, 8, 30, 12000, 2.304, 1800],
      ['18xlarge', 72, 144, 15, 50, 25000, 3.456, 1800], ['24xlarge', 96, 192, 15, 50, 25000, 4.608, 3600],
      ['metal', 96, 192, 15, 50, 25000, 4.608, 3600],
    ],
  },
  {
    family: 'c5n', arch: 'amd64', hypervisor: 'nitro', encryptionInTransit: true, zones: ABC, spotDiscount: 0.5, cpu: ['Intel', 3400], efa: { '9xlarge': 1, '18xlarge': 1, metal: 1 },
    sizes: [
      ['large', 2, 5.25, 3, 10, 3000, 0.108], ['xlarge', 4, 10.5, 4, 15, 5000, 0.216], ['2xlarge', 8, 21, 4, 15, 10000, 0.432],
      ['4xlarge', 16, 42, 8, 30, 15000, 0.864], ['9xlarge', 36, 96, 8, 30, 50000, 1.944],
      ['18xlarge', 72, 192, 15, 50, 100000, 3.888], ['metal', 72, 192, 15, 50, 100000, 3.888],
    ],
  },
  {
    family: 'c6i', arch: 'amd64', hypervisor: 'nitro', encryptionInTransit: true, zones: ALL, spotDiscount: 0.56, cpu: ['Intel', 3500], efa: { '32xlarge': 1, metal: 1 },
    sizes: [
      ['large', 2, 4, 3, 10, 781, 0.085], ['xlarge', 4, 8, 4, 15, 1562, 0.17], ['2xlarge', 8, 16, 4, 15, 3125, 0.34],
      ['4xlarge', 16, 32, 8, 30, 6250, 0.68], ['8xlarge', 32, 64, 8, 30, 12500, 1.36], ['12xlarge', 48, 96, 8, 30, 18750, 2.04],
      ['16xlarge', 64, 128, 15, 50, 25000, 2.72], ['24xlarge', 96, 192, 15, 50, 37500, 4.08],
      ['32xlarge', 128, 256, 15, 50, 50000, 5.44], ['metal', 128, 256, 15, 50, 50000, 5.44],
    ],
  },
  {
    family: 'c6a', arch: 'amd64', hypervisor: 'nitro', encryptionInTransit: true, zones: ALL, spotDiscount: 0.57, cpu: ['AMD', 3600], efa: { '48xlarge': 1, metal: 1 },
    sizes: [
      ['large', 2, 4, 3, 10, 781, 0.0765], ['xlarge', 4, 8, 4, 15, 1562, 0.153], ['2xlarge', 8, 16, 4, 15, 3125, 0.306],
      ['4xlarge', 16, 32, 8, 30, 6250, 0.612], ['8xlarge', 32, 64, 8, 30, 12500, 1.224],
      ['12xlarge', 48, 96, 8, 30, 18750, 1.836], ['16xlarge', 64, 128, 15, 50, 25000, 2.448],
      ['24xlarge', 96, 192, 15, 50, 37500, 3.672], ['32xlarge', 128, 256, 15, 50, 50000, 4.896],
      ['48xlarge', 192, 384, 15, 50, 50000, 7.344], ['metal', 192, 384, 15, 50, 50000, 7.344],
    ],
  },
  {
    family: 'c6g', arch: 'arm64', hypervisor: 'nitro', encryptionInTransit: false, zones: ALL, spotDiscount: 0.53, cpu: ['AWS', 2500],
    sizes: [
      ['medium', 1, 2, 2, 4, 500, 0.034], ['large', 2, 4, 3, 10, 750, 0.068], ['xlarge', 4, 8, 4, 15, 1250, 0.136],
      ['2xlarge', 8, 16, 4, 15, 2500, 0.272], ['4xlarge', 16, 32, 8, 30, 5000, 0.544],
      ['8xlarge', 32, 64, 8, 30, 12000, 1.088], ['12xlarge', 48, 96, 8, 30, 20000, 1.632],
      ['16xlarge', 64, 128, 15, 50, 25000, 2.176], ['metal', 64, 128, 15, 50, 25000, 2.3066],
    ],
  },
  {
    family: 'c7g', arch: 'arm64', hypervisor: 'nitro', encryptionInTransit: true, zones: ALL, spotDiscount: 0.47, cpu: ['AWS', 2600], efa: { '16xlarge': 1, metal: 1 },
    sizes: [
      ['medium', 1, 2, 2, 4, 520, 0.0363], ['large', 2, 4, 3, 10, 937, 0.0725], ['xlarge', 4, 8, 4, 15, 1876, 0.145],
      ['2xlarge', 8, 16, 4, 15, 3750, 0.29], ['4xlarge', 16, 32, 8, 30, 7500, 0.58], ['8xlarge', 32, 64, 8, 30, 15000, 1.16],
      ['12xlarge', 48, 96, 8, 30, 22500, 1.74], ['16xlarge', 64, 128, 15, 50, 30000, 2.32],
      ['metal', 64, 128, 15, 50, 30000, 2.32],
    ],
  },
  {
    family: 'c7i', arch: 'amd64', hypervisor: 'nitro', encryptionInTransit: true, zones: ALL, spotDiscount: 0.5, cpu: ['Intel', 3200], efa: { '48xlarge': 1, 'metal-48xl': 1 },
    sizes: [
      ['large', 2, 4, 3, 10, 781, 0.08925], ['xlarge', 4, 8, 4, 15, 1562, 0.1785], ['2xlarge', 8, 16, 4, 15, 3125, 0.357],
      ['4xlarge', 16, 32, 8, 30, 6250, 0.714], ['8xlarge', 32, 64, 8, 30, 12500, 1.428],
      ['12xlarge', 48, 96, 8, 30, 18750, 2.142], ['16xlarge', 64, 128, 15, 50, 25000, 2.856],
      ['24xlarge', 96, 192, 15, 50, 37500, 4.284], ['48xlarge', 192, 384, 15, 50, 50000, 8.568],
      ['metal-24xl', 96, 192, 15, 50, 37500, 4.7124], ['metal-48xl', 192, 384, 15, 50, 50000, 8.568],
    ],
  },
];
