/**
 * The public EKS-optimized AMIs the simulated region knows (Amazon Linux 2023, Amazon Linux 2,
 * Bottlerocket; standard and accelerated variants — AL2023 nvidia and neuron, the AL2 GPU image,
 * Bottlerocket nvidia; two releases per Kubernetes version), and the public
 * SSM parameters that point at them, as joiner resolves AMI aliases such as `al2023@latest`.
 */
import { createHash } from 'node:crypto';

/** An AMI in the simulated region. */
export interface ImageSpec {
  readonly imageId: string;
  readonly name: string;
  readonly description?: string;
  readonly ownerId: string;
  readonly ownerAlias?: string;
  readonly architecture: 'x86_64' | 'arm64';
  readonly creationDate: string;
  readonly deprecationTime?: string;
  readonly tags: Readonly<Record<string, string>>;
  /** Public SSM parameters whose value is this image's id. */
  readonly ssmParameters: readonly string[];
}

/** The account that owns the EKS-optimized AMIs. */
export const EKS_AMI_OWNER = '602401143452';
export const KUBERNETES_VERSIONS = ['1.28', '1.29', '1.30', '1.31', '1.32', '1.33', '1.34'] as const;
/** Release versions, oldest first; the last is `latest` / `recommended`. */
export const EKS_AMI_RELEASES = [
  { version: 'v20250901', bottlerocket: '1.45.0', created: '2025-09-01T00:00:00.000Z' },
  { version: 'v20251001', bottlerocket: '1.46.0', created: '2025-10-01T00:00:00.000Z' },
] as const;

type Release = (typeof EKS_AMI_RELEASES)[number];

/** All EKS-optimized images of the simulated region. */
export function eksImages(): ImageSpec[] {
  const images: ImageSpec[] = [];
  EKS_AMI_RELEASES.forEach((release, index) => {
    const latest = index === EKS_AMI_RELEASES.length - 1;
    for (const k8s of KUBERNETES_VERSIONS) images.push(...imagesOf(k8s, release, latest));
  });
  return images;
}

function imagesOf(k8s: string, release: Release, latest: boolean): ImageSpec[] {
  const v = release.version;
  const base = '/aws/service/eks/optimized-ami';
  const al2023 = (arch: 'x86_64' | 'arm64', variant: 'standard' | 'nvidia' | 'neuron') => {
    const name = `amazon-eks-node-al2023-${arch}-${variant}-${k8s}-${v}`;
    const dir = `${base}/${k8s}/amazon-linux-2023/${arch}/${variant}`;
    return image(name, arch, release, [
      `${dir}/${name}/image_id`,
      ...(latest ? [`${dir}/recommended/image_id`] : []),
    ]);
  };
  const al2 = (arch: 'x86_64' | 'arm64', flavour: '' | '-arm64' | '-gpu') => {
    const name = `amazon-eks${flavour === '-gpu' ? '-gpu' : flavour === '-arm64' ? '-arm64' : ''}-node-${k8s}-${v}`;
    const dir = `${base}/${k8s}/amazon-linux-2${flavour}`;
    return image(name, arch, release, [
      `${dir}/${name}/image_id`,
      ...(latest ? [`${dir}/recommended/image_id`] : []),
    ]);
  };
  const bottlerocket = (arch: 'x86_64' | 'arm64', nvidia: boolean) => {
    const variant = `aws-k8s-${k8s}${nvidia ? '-nvidia' : ''}`;
    const name = `bottlerocket-${variant}-${arch}-v${release.bottlerocket}`;
    const dir = `/aws/service/bottlerocket/${variant}/${arch}`;
    return image(name, arch, release, [
      `${dir}/${release.bottlerocket}/image_id`,
      ...(latest ? [`${dir}/latest/image_id`] : []),
    ]);
  };
  return [
    al2023('x86_64', 'standard'),
    al2023('arm64', 'standard'),
    al2023('x86_64', 'nvidia'),
    al2023('arm64', 'nvidia'),
    al2023('x86_64', 'neuron'),
    al2('x86_64', ''),
    al2('arm64', '-arm64'),
    al2('x86_64', '-gpu'),
    bottlerocket('x86_64', false),
    bottlerocket('arm64', false),
    bottlerocket('x86_64', true),
    bottlerocket('arm64', true),
  ];
}

function image(name: string, architecture: 'x86_64' | 'arm64', release: Release, ssm: string[]): ImageSpec {
  return {
    imageId: `ami-${createHash('sha256').update(name).digest('hex').slice(0, 17)}`,
    name,
    description: `EKS-optimized image ${name}`,
    ownerId: EKS_AMI_OWNER,
    ownerAlias: 'amazon',
    architecture,
    creationDate: release.created,
    tags: {},
    ssmParameters: ssm,
  };
}
