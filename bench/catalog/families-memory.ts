import { ABC, ALL, type FamilyFacts } from './family-facts.js';

/**
 * Public facts of the bundled catalog's memory-optimized families (r, x).
 * The row format and the sources are in `family-facts.ts`.
 */
// biome-ignore format: a table reads better one size per cell
export const MEMORY_FAMILIES: readonly FamilyFacts[] = [
  {
    family: 'r4', arch: 'amd64', hypervisor: 'xen', encryptionInTransit: false, zones: ABC, spotDiscount: 0.66, cpu: ['Intel', 2300],
    sizes: [
      ['large', 2, 15.25, 3, 10, 750, 0.133], ['xlarge', 4, 30.5, 4, 15, 1250, 0.266],
      ['2xlarge', 8, 61, 4, 15, 2500, 0.532], ['4xlarge', 16, 122, 8, 30, 5000, 1.064],
      ['8xlarge', 32, 244, 8, 30, 10000, 2.128], ['16xlarge', 64, 488, 15, 50, 25000, 4.256],
    ],
  },
  {
    family: 'r5', arch: 'amd64', hypervisor: 'nitro', encryptionInTransit: false, zones: ALL, spotDiscount: 0.62, cpu: ['Intel', 3100],
    sizes: [
      ['large', 2, 16, 3, 10, 750, 0.126], ['xlarge', 4, 32, 4, 15, 1250, 0.252], ['2xlarge', 8, 64, 4, 15, 2500, 0.504],
      ['4xlarge', 16, 128, 8, 30, 5000, 1.008], ['8xlarge', 32, 256, 8, 30, 10000, 2.016],
      ['12xlarge', 48, 384, 8, 30, 12000, 3.024], ['16xlarge', 64, 512, 15, 50, 20000, 4.032],
      ['24xlarge', 96, 768, 15, 50, 25000, 6.048], ['metal', 96, 768, 15, 50, 25000, 6.048],
    ],
  },
  {
    family: 'r5a', arch: 'amd64', hypervisor: 'nitro', encryptionInTransit: false, zones: ALL, spotDiscount: 0.62, cpu: ['AMD', 2500],
    sizes: [
      ['large', 2, 16, 3, 10, 750, 0.113], ['xlarge', 4, 32, 4, 15, 1250, 0.226],
      ['2xlarge', 8, 64, 4, 15, 2500, 0.452], ['4xlarge', 16, 128, 8, 30, 5000, 0.904],
      ['8xlarge', 32, 256, 8, 30, 7500, 1.808], ['12xlarge', 48, 384, 8, 30, 10000, 2.712],
      ['16xlarge', 64, 512, 15, 50, 12000, 3.616], ['24xlarge', 96, 768, 15, 50, 20000, 5.424],
    ],
  },
  {
    family: 'r5d', arch: 'amd64', hypervisor: 'nitro', encryptionInTransit: false, zones: ALL, spotDiscount: 0.62, cpu: ['Intel', 3100],
    sizes: [
      ['large', 2, 16, 3, 10, 750, 0.144, 75], ['xlarge', 4, 32, 4, 15, 1250, 0.288, 150],
      ['2xlarge', 8, 64, 4, 15, 2500, 0.576, 300], ['4xlarge', 16, 128, 8, 30, 5000, 1.152, 600],
      ['8xlarge', 32, 256, 8, 30, 10000, 2.304, 1200], ['12xlarge', 48, 384, 8, 30, 12000, 3.456, 1800],
      ['16xlarge', 64, 512, 15, 50, 20000, 4.608, 2400], ['24xlarge', 96, 768, 15, 50, 25000, 6.912, 3600],
      ['metal', 96, 768, 15, 50, 25000, 6.912, 3600],
    ],
  },
  {
    family: 'r6i', arch: 'amd64', hypervisor: 'nitro', encryptionInTransit: true, zones: ALL, spotDiscount: 0.58, cpu: ['Intel', 3500], efa: { '32xlarge': 1, metal: 1 },
    sizes: [
      ['large', 2, 16, 3, 10, 781, 0.126], ['xlarge', 4, 32, 4, 15, 1562, 0.252], ['2xlarge', 8, 64, 4, 15, 3125, 0.504],
      ['4xlarge', 16, 128, 8, 30, 6250, 1.008], ['8xlarge', 32, 256, 8, 30, 12500, 2.016],
      ['12xlarge', 48, 384, 8, 30, 18750, 3.024], ['16xlarge', 64, 512, 15, 50, 25000, 4.032],
      ['24xlarge', 96, 768, 15, 50, 37500, 6.048], ['32xlarge', 128, 1024, 15, 50, 50000, 8.064],
      ['metal', 128, 1024, 15, 50, 50000, 8.064],
    ],
  },
  {
    family: 'r6a', arch: 'amd64', hypervisor: 'nitro', encryptionInTransit: true, zones: ALL, spotDiscount: 0.58, cpu: ['AMD', 3600], efa: { '48xlarge': 1, metal: 1 },
    sizes: [
      ['large', 2, 16, 3, 10, 781, 0.1134], ['xlarge', 4, 32, 4, 15, 1562, 0.2268],
      ['2xlarge', 8, 64, 4, 15, 3125, 0.4536], ['4xlarge', 16, 128, 8, 30, 6250, 0.9072],
      ['8xlarge', 32, 256, 8, 30, 12500, 1.8144], ['12xlarge', 48, 384, 8, 30, 18750, 2.7216],
      ['16xlarge', 64, 512, 15, 50, 25000, 3.6288], ['24xlarge', 96, 768, 15, 50, 37500, 5.4432],
      ['32xlarge', 128, 1024, 15, 50, 50000, 7.2576], ['48xlarge', 192, 1536, 15, 50, 50000, 10.8864],
      ['metal', 192, 1536, 15, 50, 50000, 10.8864],
    ],
  },
  {
    family: 'r6g', arch: 'arm64', hypervisor: 'nitro', encryptionInTransit: false, zones: ALL, spotDiscount: 0.55, cpu: ['AWS', 2500],
    sizes: [
      ['medium', 1, 8, 2, 4, 500, 0.0504], ['large', 2, 16, 3, 10, 750, 0.1008], ['xlarge', 4, 32, 4, 15, 1250, 0.2016],
      ['2xlarge', 8, 64, 4, 15, 2500, 0.4032], ['4xlarge', 16, 128, 8, 30, 5000, 0.8064],
      ['8xlarge', 32, 256, 8, 30, 12000, 1.6128], ['12xlarge', 48, 384, 8, 30, 20000, 2.4192],
      ['16xlarge', 64, 512, 15, 50, 25000, 3.2256], ['metal', 64, 512, 15, 50, 25000, 3.4191],
    ],
  },
  {
    family: 'r6gd', arch: 'arm64', hypervisor: 'nitro', encryptionInTransit: false, zones: ALL, spotDiscount: 0.56, cpu: ['AWS', 2500],
    sizes: [
      ['medium', 1, 8, 2, 4, 500, 0.0576, 59], ['large', 2, 16, 3, 10, 750, 0.1152, 118],
      ['xlarge', 4, 32, 4, 15, 1250, 0.2304, 237], ['2xlarge', 8, 64, 4, 15, 2500, 0.4608, 474],
      ['4xlarge', 16, 128, 8, 30, 5000, 0.9216, 950], ['8xlarge', 32, 256, 8, 30, 12000, 1.8432, 1900],
      ['12xlarge', 48, 384, 8, 30, 20000, 2.7648, 2850], ['16xlarge', 64, 512, 15, 50, 25000, 3.6864, 3800],
      ['metal', 64, 512, 15, 50, 25000, 3.9076, 3800],
    ],
  },
  {
    family: 'r7g', arch: 'arm64', hypervisor: 'nitro', encryptionInTransit: true, zones: ALL, spotDiscount: 0.5, cpu: ['AWS', 2600], efa: { '16xlarge': 1, metal: 1 },
    sizes: [
      ['medium', 1, 8, 2, 4, 520, 0.0536], ['large', 2, 16, 3, 10, 937, 0.1071], ['xlarge', 4, 32, 4, 15, 1876, 0.2142],
      ['2xlarge', 8, 64, 4, 15, 3750, 0.4284], ['4xlarge', 16, 128, 8, 30, 7500, 0.8568],
      ['8xlarge', 32, 256, 8, 30, 15000, 1.7136], ['12xlarge', 48, 384, 8, 30, 22500, 2.5704],
      ['16xlarge', 64, 512, 15, 50, 30000, 3.4272], ['metal', 64, 512, 15, 50, 30000, 3.4272],
    ],
  },
  {
    family: 'r7i', arch: 'amd64', hypervisor: 'nitro', encryptionInTransit: true, zones: ALL, spotDiscount: 0.52, cpu: ['Intel', 3200], efa: { '48xlarge': 1, 'metal-48xl': 1 },
    sizes: [
      ['large', 2, 16, 3, 10, 781, 0.1323], ['xlarge', 4, 32, 4, 15, 1562, 0.2646], ['2xlarge', 8, 64, 4, 15, 3125, 0.5292],
      ['4xlarge', 16, 128, 8, 30, 6250, 1.0584], ['8xlarge', 32, 256, 8, 30, 12500, 2.1168],
      ['12xlarge', 48, 384, 8, 30, 18750, 3.1752], ['16xlarge', 64, 512, 15, 50, 25000, 4.2336],
      ['24xlarge', 96, 768, 15, 50, 37500, 6.3504], ['48xlarge', 192, 1536, 15, 50, 50000, 12.7008],
      ['metal-24xl', 96, 768, 15, 50, 37500, 6.98544], ['metal-48xl', 192, 1536, 15, 50, 50000, 12.7008],
    ],
  },
  {
    family: 'x1e', arch: 'amd64', hypervisor: 'xen', encryptionInTransit: false, zones: ABC, spotDiscount: 0.66, cpu: ['Intel', 2300],
    sizes: [
      ['xlarge', 4, 122, 3, 10, 625, 0.834], ['2xlarge', 8, 244, 4, 15, 1250, 1.668], ['4xlarge', 16, 488, 4, 15, 2500, 3.336],
      ['8xlarge', 32, 976, 4, 15, 5000, 6.672], ['16xlarge', 64, 1952, 8, 30, 10000, 13.344],
      ['32xlarge', 128, 3904, 8, 30, 25000, 26.688],
    ],
  },
];
