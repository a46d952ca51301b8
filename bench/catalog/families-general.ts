import { ABC, ALL, type FamilyFacts } from './family-facts.js';

/**
 * Public facts of the bundled catalog's general-purpose and burstable families (t, m).
 * The row format and the sources are in `family-facts.ts`.
 */
// biome-ignore format: a table reads better one size per cell
export const GENERAL_FAMILIES: readonly FamilyFacts[] = [
  {
    family: 't3', arch: 'amd64', hypervisor: 'nitro', encryptionInTransit: false, zones: ALL, spotDiscount: 0.62, cpu: ['Intel', 2500],
    sizes: [
      ['nano', 2, 0.5, 2, 2, 32, 0.0052], ['micro', 2, 1, 2, 2, 64, 0.0104], ['small', 2, 2, 3, 4, 128, 0.0208],
      ['medium', 2, 4, 3, 6, 256, 0.0416], ['large', 2, 8, 3, 12, 512, 0.0832], ['xlarge', 4, 16, 4, 15, 1024, 0.1664],
      ['2xlarge', 8, 32, 4, 15, 2048, 0.3328],
    ],
  },
  {
    family: 't3a', arch: 'amd64', hypervisor: 'nitro', encryptionInTransit: false, zones: ALL, spotDiscount: 0.62, cpu: ['AMD', 2200],
    sizes: [
      ['nano', 2, 0.5, 2, 2, 32, 0.0047], ['micro', 2, 1, 2, 2, 64, 0.0094], ['small', 2, 2, 2, 4, 128, 0.0188],
      ['medium', 2, 4, 3, 6, 256, 0.0376], ['large', 2, 8, 3, 12, 512, 0.0752],
      ['xlarge', 4, 16, 4, 15, 1024, 0.1504], ['2xlarge', 8, 32, 4, 15, 2048, 0.3008],
    ],
  },
  {
    family: 't4g', arch: 'arm64', hypervisor: 'nitro', encryptionInTransit: false, zones: ALL, spotDiscount: 0.6, cpu: ['AWS', 2500],
    sizes: [
      ['nano', 2, 0.5, 2, 2, 32, 0.0042], ['micro', 2, 1, 2, 2, 64, 0.0084], ['small', 2, 2, 3, 4, 128, 0.0168],
      ['medium', 2, 4, 3, 6, 256, 0.0336], ['large', 2, 8, 3, 12, 512, 0.0672], ['xlarge', 4, 16, 4, 15, 1024, 0.1344],
      ['2xlarge', 8, 32, 4, 15, 2048, 0.2688],
    ],
  },
  {
    // Previous generation: EC2 publishes no baseline bandwidth for the sizes below 10xlarge (0 = no label).
    family: 'm4', arch: 'amd64', hypervisor: 'xen', encryptionInTransit: false, zones: ABC, spotDiscount: 0.64, cpu: ['Intel', 2400], clock: { '16xlarge': 2300 },
    sizes: [
      ['large', 2, 8, 2, 10, 0, 0.1], ['xlarge', 4, 16, 4, 15, 0, 0.2], ['2xlarge', 8, 32, 4, 15, 0, 0.4],
      ['4xlarge', 16, 64, 8, 30, 0, 0.8], ['10xlarge', 40, 160, 8, 30, 10000, 2],
      ['16xlarge', 64, 256, 8, 30, 25000, 3.2],
    ],
  },
  {
    family: 'm5', arch: 'amd64', hypervisor: 'nitro', encryptionInTransit: false, zones: ALL, spotDiscount: 0.58, cpu: ['Intel', 3100],
    sizes: [
      ['large', 2, 8, 3, 10, 750, 0.096], ['xlarge', 4, 16, 4, 15, 1250, 0.192], ['2xlarge', 8, 32, 4, 15, 2500, 0.384],
      ['4xlarge', 16, 64, 8, 30, 5000, 0.768], ['8xlarge', 32, 128, 8, 30, 10000, 1.536],
      ['12xlarge', 48, 192, 8, 30, 12000, 2.304], ['16xlarge', 64, 256, 15, 50, 20000, 3.072],
      ['24xlarge', 96, 384, 15, 50, 25000, 4.608], ['metal', 96, 384, 15, 50, 25000, 4.608],
    ],
  },
  {
    family: 'm5a', arch: 'amd64', hypervisor: 'nitro', encryptionInTransit: false, zones: ALL, spotDiscount: 0.6, cpu: ['AMD', 2500],
    sizes: [
      ['large', 2, 8, 3, 10, 750, 0.086], ['xlarge', 4, 16, 4, 15, 1250, 0.172],
      ['2xlarge', 8, 32, 4, 15, 2500, 0.344], ['4xlarge', 16, 64, 8, 30, 5000, 0.688],
      ['8xlarge', 32, 128, 8, 30, 7500, 1.376], ['12xlarge', 48, 192, 8, 30, 10000, 2.064],
      ['16xlarge', 64, 256, 15, 50, 12000, 2.752], ['24xlarge', 96, 384, 15, 50, 20000, 4.128],
    ],
  },
  {
    family: 'm5d', arch: 'amd64', hypervisor: 'nitro', encryptionInTransit: false, zones: ALL, spotDiscount: 0.6, cpu: ['Intel', 3100],
    sizes: [
      ['large', 2, 8, 3, 10, 750, 0.113, 75], ['xlarge', 4, 16, 4, 15, 1250, 0.226, 150],
      ['2xlarge', 8, 32, 4, 15, 2500, 0.452, 300], ['4xlarge', 16, 64, 8, 30, 5000, 0.904, 600],
      ['8xlarge', 32, 128, 8, 30, 10000, 1.808, 1200], ['12xlarge', 48, 192, 8, 30, 12000, 2.712, 1800],
      ['16xlarge', 64, 256, 15, 50, 20000, 3.616, 2400], ['24xlarge', 96, 384, 15, 50, 25000, 5.424, 3600],
      ['metal', 96, 384, 15, 50, 25000, 5.424, 3600],
    ],
  },
  {
    family: 'm6i', arch: 'amd64', hypervisor: 'nitro', encryptionInTransit: true, zones: ALL, spotDiscount: 0.55, cpu: ['Intel', 3500], efa: { '32xlarge': 1, metal: 1 },
    sizes: [
      ['large', 2, 8, 3, 10, 781, 0.096], ['xlarge', 4, 16, 4, 15, 1562, 0.192], ['2xlarge', 8, 32, 4, 15, 3125, 0.384],
      ['4xlarge', 16, 64, 8, 30, 6250, 0.768], ['8xlarge', 32, 128, 8, 30, 12500, 1.536],
      ['12xlarge', 48, 192, 8, 30, 18750, 2.304], ['16xlarge', 64, 256, 15, 50, 25000, 3.072],
      ['24xlarge', 96, 384, 15, 50, 37500, 4.608], ['32xlarge', 128, 512, 15, 50, 50000, 6.144],
      ['metal', 128, 512, 15, 50, 50000, 6.144],
    ],
  },
  {
    family: 'm6a', arch: 'amd64', hypervisor: 'nitro', encryptionInTransit: true, zones: ALL, spotDiscount: 0.56, cpu: ['AMD', 3600], efa: { '48xlarge': 1, metal: 1 },
    sizes: [
      ['large', 2, 8, 3, 10, 781, 0.0864], ['xlarge', 4, 16, 4, 15, 1562, 0.1728], ['2xlarge', 8, 32, 4, 15, 3125, 0.3456],
      ['4xlarge', 16, 64, 8, 30, 6250, 0.6912], ['8xlarge', 32, 128, 8, 30, 12500, 1.3824],
      ['12xlarge', 48, 192, 8, 30, 18750, 2.0736], ['16xlarge', 64, 256, 15, 50, 25000, 2.7648],
      ['24xlarge', 96, 384, 15, 50, 37500, 4.1472], ['32xlarge', 128, 512, 15, 50, 50000, 5.5296],
      ['48xlarge', 192, 768, 15, 50, 50000, 8.2944], ['metal', 192, 768, 15, 50, 50000, 8.2944],
    ],
  },
  {
    family: 'm6g', arch: 'arm64', hypervisor: 'nitro', encryptionInTransit: false, zones: ALL, spotDiscount: 0.52, cpu: ['AWS', 2500],
    sizes: [
      ['medium', 1, 4, 2, 4, 500, 0.0385], ['large', 2, 8, 3, 10, 750, 0.077], ['xlarge', 4, 16, 4, 15, 1250, 0.154],
      ['2xlarge', 8, 32, 4, 15, 2500, 0.308], ['4xlarge', 16, 64, 8, 30, 5000, 0.616],
      ['8xlarge', 32, 128, 8, 30, 12000, 1.232], ['12xlarge', 48, 192, 8, 30, 20000, 1.848],
      ['16xlarge', 64, 256, 15, 50, 25000, 2.464], ['metal', 64, 256, 15, 50, 25000, 2.6112],
    ],
  },
  {
    family: 'm7i', arch: 'amd64', hypervisor: 'nitro', encryptionInTransit: true, zones: ALL, spotDiscount: 0.5, cpu: ['Intel', 3200], efa: { '48xlarge': 1, 'metal-48xl': 1 },
    sizes: [
      ['large', 2, 8, 3, 10, 781, 0.1008], ['xlarge', 4, 16, 4, 15, 1562, 0.2016], ['2xlarge', 8, 32, 4, 15, 3125, 0.4032],
      ['4xlarge', 16, 64, 8, 30, 6250, 0.8064], ['8xlarge', 32, 128, 8, 30, 12500, 1.6128],
      ['12xlarge', 48, 192, 8, 30, 18750, 2.4192], ['16xlarge', 64, 256, 15, 50, 25000, 3.2256],
      ['24xlarge', 96, 384, 15, 50, 37500, 4.8384], ['48xlarge', 192, 768, 15, 50, 50000, 9.6768],
      ['metal-24xl', 96, 384, 15, 50, 37500, 5.32224], ['metal-48xl', 192, 768, 15, 50, 50000, 9.6768],
    ],
  },
  {
    family: 'm7g', arch: 'arm64', hypervisor: 'nitro', encryptionInTransit: true, zones: ALL, spotDiscount: 0.48, cpu: ['AWS', 2600], efa: { '16xlarge': 1, metal: 1 },
    sizes: [
      ['medium', 1, 4, 2, 4, 520, 0.0408], ['large', 2, 8, 3, 10, 937, 0.0816], ['xlarge', 4, 16, 4, 15, 1876, 0.1632],
      ['2xlarge', 8, 32, 4, 15, 3750, 0.3264], ['4xlarge', 16, 64, 8, 30, 7500, 0.6528],
      ['8xlarge', 32, 128, 8, 30, 15000, 1.3056], ['12xlarge', 48, 192, 8, 30, 22500, 1.9584],
      ['16xlarge', 64, 256, 15, 50, 30000, 2.6112], ['metal', 64, 256, 15, 50, 30000, 2.6112],
    ],
  },
];
