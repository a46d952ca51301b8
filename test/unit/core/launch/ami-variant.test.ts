import { describe, expect, it } from 'vitest';
import {
  allImageIds,
  imageFor,
  variantOfLabels,
  variantOfType,
} from '../../../../functions/core/launch/ami-variant.js';
import { planLaunch } from '../../../../functions/core/launch/fleet-request.js';
import type { InstanceFacts, ResolvedNodeClass } from '../../../../functions/core/launch/launch-context.js';
import { claim, facts, multusNodeClass, option, resolved } from './fixtures.js';

/** Facts where g5 / p3 have NVIDIA GPUs and inf2 Neuron devices. */
function acceleratedFacts(type: string): InstanceFacts {
  const base = facts(type);
  if (/^(g5|p3)\./.test(type)) return { ...base, variant: 'nvidia' };
  if (type.startsWith('inf2.')) return { ...base, variant: 'neuron' };
  return { ...base, variant: 'standard' };
}

const aliasResolved = (): ResolvedNodeClass => ({
  ...resolved(),
  images: { amd64: 'ami-std', arm64: 'ami-std-arm' },
  variantImages: { 'amd64/nvidia': 'ami-nvidia', 'amd64/neuron': 'ami-neuron' },
});

function plan(types: string[], r: ResolvedNodeClass = aliasResolved()) {
  const options = types.map((t, i) => option(t, 'us-west-2a', 'on-demand', i + 1));
  return planLaunch({
    claim: claim(options),
    nodeClass: multusNodeClass(),
    family: 'AL2023',
    resolved: r,
    options,
    capacityType: 'on-demand',
    clientToken: 'tok',
    instanceFacts: acceleratedFacts,
  });
}

describe('AMI variant of an instance type', () => {
  it('is nvidia with GPUs, neuron with Neuron devices, standard otherwise (Karpenter variant requirements)', () => {
    expect(
      variantOfType({ gpus: { count: 4, manufacturer: 'NVIDIA', name: 'V100', memoryMiB: 16384 } }),
    ).toBe('nvidia');
    expect(variantOfType({ accelerators: { count: 1, name: 'Inferentia2', manufacturer: 'AWS' } })).toBe(
      'neuron',
    );
    expect(variantOfType({})).toBe('standard');
    expect(variantOfLabels({ 'karpenter.k8s.aws/instance-gpu-count': '1' })).toBe('nvidia');
    expect(variantOfLabels({ 'karpenter.k8s.aws/instance-accelerator-count': '1' })).toBe('neuron');
    expect(variantOfLabels({ 'kubernetes.io/arch': 'amd64' })).toBe('standard');
  });

  it('selects the variant image of an alias, and the one image of custom terms for every variant', () => {
    const r = aliasResolved();
    expect(imageFor(r, 'amd64', 'nvidia')).toBe('ami-nvidia');
    expect(imageFor(r, 'amd64', 'standard')).toBe('ami-std');
    expect(imageFor(r, 'arm64', 'nvidia')).toBeUndefined();
    expect(imageFor({ images: { amd64: 'ami-custom' } }, 'amd64', 'nvidia')).toBe('ami-custom');
    expect(allImageIds(r)).toEqual(['ami-neuron', 'ami-nvidia', 'ami-std', 'ami-std-arm']);
  });
});

describe('launch templates per AMI variant', () => {
  it('gives a NodeClaim whose types need different variants one launch template per variant', () => {
    const { templates, request } = plan(['c6i.2xlarge', 'g5.2xlarge', 'inf2.2xlarge']);
    const imageOf = (type: string) => {
      const config = request.LaunchTemplateConfigs.find((c) =>
        c.Overrides.some((o) => o.InstanceType === type),
      )!;
      return templates.find((t) => t.name === config.LaunchTemplateSpecification.LaunchTemplateName)!.data
        .ImageId;
    };
    expect(templates).toHaveLength(3);
    expect(imageOf('c6i.2xlarge')).toBe('ami-std');
    expect(imageOf('g5.2xlarge')).toBe('ami-nvidia');
    expect(imageOf('inf2.2xlarge')).toBe('ami-neuron');
  });

  it('leaves out a GPU type whose variant the alias does not publish, and says why', () => {
    const r = { ...aliasResolved(), variantImages: {} };
    const { templates, skipped } = plan(['c6i.2xlarge', 'p3.8xlarge'], r);
    expect(templates.map((t) => t.data.ImageId)).toEqual(['ami-std']);
    expect(skipped).toEqual([expect.objectContaining({ reason: 'no nvidia AMI for amd64' })]);
    expect(() => plan(['p3.8xlarge'], r)).toThrow(/no nvidia AMI for amd64/);
  });

  it('boots a custom AMI (selected by id, name or tags) on GPU types too', () => {
    const r = { ...resolved(), images: { amd64: 'ami-custom' } };
    const { templates } = plan(['g5.2xlarge'], r);
    expect(templates[0].data.ImageId).toBe('ami-custom');
  });
});
