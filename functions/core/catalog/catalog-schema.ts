import * as z from 'zod';

/** One offering: zone, capacity type and hourly USD price. */
const offeringSchema = z.strictObject({
  zone: z.string().min(1),
  capacityType: z.enum(['spot', 'on-demand', 'reserved']),
  price: z.number().nonnegative(),
});

/** GPUs of an instance type: count, manufacturer, model name and memory per GPU (MiB). */
const gpusSchema = z.strictObject({
  count: z.number().int().positive(),
  manufacturer: z.string().min(1),
  name: z.string().min(1),
  memoryMiB: z.number().int().nonnegative(),
});

const positiveInt = z.number().int().positive();

/** Neuron accelerators: device count, name, manufacturer and NeuronCores per device. */
const acceleratorsSchema = z.strictObject({
  count: positiveInt,
  name: z.string().min(1),
  manufacturer: z.string().min(1),
  coresPerDevice: positiveInt.optional(),
});

/** One instance type of the documented catalog format (docs/catalog.md). */
const instanceTypeSchema = z.strictObject({
  name: z.string().regex(/^[a-z0-9-]+\.[a-z0-9-]+$/, 'expected an instance type name such as "m5.large"'),
  vcpu: positiveInt,
  memoryMiB: positiveInt,
  arch: z.enum(['amd64', 'arm64']),
  gpus: gpusSchema.optional(),
  accelerators: acceleratorsSchema.optional(),
  maxEnis: positiveInt,
  ipv4PerEni: positiveInt,
  networkCards: positiveInt.optional(),
  maxEfaInterfaces: positiveInt.optional(),
  localNvmeGiB: z.number().int().nonnegative().optional(),
  networkBandwidthMbps: z.number().int().nonnegative().optional(),
  ebsBandwidthMbps: z.number().int().nonnegative().optional(),
  hypervisor: z.enum(['nitro', 'xen', '']).optional(),
  encryptionInTransit: z.boolean().optional(),
  cpuManufacturer: z.string().min(1).optional(),
  sustainedClockSpeedMhz: positiveInt.optional(),
  offerings: z.array(offeringSchema),
  overhead: z
    .strictObject({
      kubeReservedCpuMillis: z.number().int().nonnegative().optional(),
      kubeReservedMemoryMiB: z.number().int().nonnegative().optional(),
    })
    .optional(),
  maxPods: positiveInt.optional(),
});

/** The catalog file: `{ region, source?, instanceTypes: [...] }`. */
export const catalogSchema = z.strictObject({
  region: z.string().regex(/^[a-z]{2}(-[a-z]+)+-\d+$/, 'expected an AWS region such as "us-west-2"'),
  source: z.string().optional(),
  instanceTypes: z.array(instanceTypeSchema).min(1),
});

/** What {@link catalogSchema} accepts. */
export type CatalogInput = z.infer<typeof catalogSchema>;
