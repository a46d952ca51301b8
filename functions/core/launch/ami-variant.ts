/**
 * AMI variants, as Karpenter resolves an alias (`al2023@latest`, `al2@…`, `bottlerocket@…`): the
 * family publishes a standard image and accelerated images (NVIDIA drivers and device plugin,
 * Neuron drivers), and each instance type boots the variant its accelerators need. A type with
 * GPUs (`instance-gpu-count` set) needs the nvidia variant; one with Neuron accelerators
 * (`instance-accelerator-count` set) the neuron variant; any other type the standard one.
 */
import type { InstanceType } from '../model/instance-type.js';

/** The variants Karpenter knows (`standard`, `nvidia`, `neuron`). */
export type AmiVariant = 'standard' | 'nvidia' | 'neuron';

/** An architecture as the `kubernetes.io/arch` label spells it. */
export type Arch = 'amd64' | 'arm64';

/** The variant-specific images of an alias: `<arch>/<variant>` to AMI id (accelerated variants only). */
export type VariantImages = Readonly<Partial<Record<`${Arch}/${Exclude<AmiVariant, 'standard'>}`, string>>>;

/** The images a NodeClass resolved: one per architecture, and per variant when an alias selected them. */
export interface ResolvedImages {
  /**
   * AMI id per architecture: the alias's standard image, or the newest image the NodeClass's own
   * terms (id, name, tags, ssmParameter) select, which then serves every instance type.
   */
  readonly images: Readonly<Partial<Record<Arch, string>>>;
  /**
   * Present when an alias was resolved: the accelerated variants it publishes. An accelerated
   * instance type then boots only its variant (none published: the type cannot launch), as
   * Karpenter's variant requirements make the standard image incompatible with it.
   */
  readonly variantImages?: VariantImages;
}

/** The variant an instance type's accelerators need (from its catalog facts). */
export function variantOfType(type: Pick<InstanceType, 'gpus' | 'accelerators'>): AmiVariant {
  if (type.gpus && type.gpus.count > 0) return 'nvidia';
  if (type.accelerators && type.accelerators.count > 0) return 'neuron';
  return 'standard';
}

/** The variant from a type's node labels (`instance-gpu-count`, `instance-accelerator-count`). */
export function variantOfLabels(labels: Readonly<Record<string, string>>): AmiVariant {
  if (labels['karpenter.k8s.aws/instance-gpu-count'] !== undefined) return 'nvidia';
  if (labels['karpenter.k8s.aws/instance-accelerator-count'] !== undefined) return 'neuron';
  return 'standard';
}

/** The AMI an instance of `arch` needing `variant` boots, or undefined when none was resolved. */
export function imageFor(resolved: ResolvedImages, arch: Arch, variant: AmiVariant): string | undefined {
  if (variant === 'standard' || !resolved.variantImages) return resolved.images[arch];
  return resolved.variantImages[`${arch}/${variant}`];
}

/** Every AMI id of a resolution (standard and variants), sorted and unique: what drift compares. */
export function allImageIds(resolved: ResolvedImages): string[] {
  const ids = [...Object.values(resolved.images), ...Object.values(resolved.variantImages ?? {})];
  return [...new Set(ids.filter((id): id is string => !!id))].sort();
}
