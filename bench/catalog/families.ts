/**
 * Public facts about the EC2 instance families of joiner's bundled catalog: per size vCPUs,
 * memory (GiB), ENIs x IPv4 per ENI, baseline network bandwidth (Mbps), local NVMe (GiB) and GPUs;
 * and per family the architecture, hypervisor, encryption in transit and the us-west-2 zones.
 * Sources: the EC2 instance type documentation, the VPC CNI ENI/IP limits and the EC2 on-demand
 * Linux price list. `generate-catalog.ts` turns these into the catalog JSON.
 */

/** [size, vcpu, memory GiB, maxEnis, ipv4PerEni, bandwidth Mbps, on-demand USD/h, nvme GiB?, gpu count?]. */
export type SizeRow = readonly [string, number, number, number, number, number, number, number?, number?];

export interface FamilyFacts {
  readonly family: string;
  readonly arch: 'amd64' | 'arm64';
  readonly hypervisor: 'nitro' | 'xen';
  readonly encryptionInTransit: boolean;
  readonly zones: readonly string[];
  /** Spot discount typical of the family (0.3-0.7 below on-demand). */
  readonly spotDiscount: number;
  readonly gpu?: { readonly manufacturer: string; readonly name: string; readonly memoryMiB: number };
  /** Processor manufacturer as EC2 names it and sustained all-core clock speed (MHz). */
  readonly cpu: readonly [string, number];
  /** Sizes with more than one network card: their card count. */
  readonly networkCards?: Readonly<Record<string, number>>;
  /** Sizes that support EFA: their maximum EFA interfaces (EC2 `EfaInfo.MaximumEfaInterfaces`). */
  readonly efa?: Readonly<Record<string, number>>;
  readonly sizes: readonly SizeRow[];
}

const ALL = ['a', 'b', 'c', 'd'];
const ABC = ['a', 'b', 'c'];

// biome-ignore format: a table reads better one size per cell
export const FAMILIES: readonly FamilyFacts[] = [
  {
    family: 't3', arch: 'amd64', hypervisor: 'nitro', encryptionInTransit: false, zones: ALL, spotDiscount: 0.62, cpu: ['Intel', 2500],
    sizes: [
      ['nano', 2, 0.5, 2, 2, 32, 0.0052], ['micro', 2, 1, 2, 2, 64, 0.0104], ['small', 2, 2, 3, 4, 128, 0.0208],
      ['medium', 2, 4, 3, 6, 256, 0.0416], ['large', 2, 8, 3, 12, 512, 0.0832], ['xlarge', 4, 16, 4, 15, 1024, 0.1664],
      ['2xlarge', 8, 32, 4, 15, 2048, 0.3328],
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
    family: 'm5', arch: 'amd64', hypervisor: 'nitro', encryptionInTransit: false, zones: ALL, spotDiscount: 0.58, cpu: ['Intel', 3100],
    sizes: [
      ['large', 2, 8, 3, 10, 750, 0.096], ['xlarge', 4, 16, 4, 15, 1250, 0.192], ['2xlarge', 8, 32, 4, 15, 2500, 0.384],
      ['4xlarge', 16, 64, 8, 30, 5000, 0.768], ['8xlarge', 32, 128, 8, 30, 10000, 1.536],
      ['12xlarge', 48, 192, 8, 30, 12000, 2.304], ['16xlarge', 64, 256, 15, 50, 20000, 3.072],
      ['24xlarge', 96, 384, 15, 50, 25000, 4.608], ['metal', 96, 384, 15, 50, 25000, 4.608],
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
  {
    family: 'c5', arch: 'amd64', hypervisor: 'nitro', encryptionInTransit: false, zones: ALL, spotDiscount: 0.6, cpu: ['Intel', 3400],
    sizes: [
      ['large', 2, 4, 3, 10, 750, 0.085], ['xlarge', 4, 8, 4, 15, 1250, 0.17], ['2xlarge', 8, 16, 4, 15, 2500, 0.34],
      ['4xlarge', 16, 32, 8, 30, 5000, 0.68], ['9xlarge', 36, 72, 8, 30, 12000, 1.53], ['12xlarge', 48, 96, 8, 30, 12000, 2.04],
      ['18xlarge', 72, 144, 15, 50, 25000, 3.06], ['24xlarge', 96, 192, 15, 50, 25000, 4.08],
      ['metal', 96, 192, 15, 50, 25000, 4.08],
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
    gpu: { manufacturer: 'NVIDIA', name: 'A10G', memoryMiB: 24576 },
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
    family: 'c5n', arch: 'amd64', hypervisor: 'nitro', encryptionInTransit: false, zones: ABC, spotDiscount: 0.5, cpu: ['Intel', 3400], efa: { '9xlarge': 1, '18xlarge': 1, metal: 1 },
    sizes: [
      ['large', 2, 5.25, 3, 10, 3000, 0.108], ['xlarge', 4, 10.5, 4, 15, 5000, 0.216], ['2xlarge', 8, 21, 4, 15, 10000, 0.432],
      ['4xlarge', 16, 42, 8, 30, 15000, 0.864], ['9xlarge', 36, 96, 8, 30, 50000, 1.944],
      ['18xlarge', 72, 192, 15, 50, 100000, 3.888], ['metal', 72, 192, 15, 50, 100000, 3.888],
    ],
  },
  {
    // 4 network cards of 15 ENIs each; one EFA per card.
    family: 'p4d', arch: 'amd64', hypervisor: 'nitro', encryptionInTransit: true, zones: ABC, spotDiscount: 0.6, cpu: ['Intel', 3000], networkCards: { '24xlarge': 4 }, efa: { '24xlarge': 4 },
    gpu: { manufacturer: 'NVIDIA', name: 'A100', memoryMiB: 40960 },
    sizes: [['24xlarge', 96, 1152, 60, 50, 400000, 21.9576, 8000, 8]],
  },
  {
    // 32 network cards of 2 ENIs each; one EFA per card.
    family: 'p5', arch: 'amd64', hypervisor: 'nitro', encryptionInTransit: true, zones: ABC, spotDiscount: 0.55, cpu: ['AMD', 3700], networkCards: { '48xlarge': 32 }, efa: { '48xlarge': 32 },
    gpu: { manufacturer: 'NVIDIA', name: 'H100', memoryMiB: 81920 },
    sizes: [['48xlarge', 192, 2048, 64, 50, 3200000, 55.04, 30720, 8]],
  },
];
