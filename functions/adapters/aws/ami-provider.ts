import type { Image } from '@aws-sdk/client-ec2';
import { GetParameterCommand, type SSMClient } from '@aws-sdk/client-ssm';
import type { AmiVariant, ResolvedImages } from '../../core/launch/ami-variant.js';
import type { AmiSelectorTerm } from '../../core/model/node-class.js';
import { CACHE_TTLS, TtlCache } from './caches.js';
import type { Ec2Api } from './ec2-api.js';

export type Arch = 'amd64' | 'arm64';
const EC2_ARCH: Record<Arch, 'x86_64' | 'arm64'> = { amd64: 'x86_64', arm64: 'arm64' };

/** One public SSM parameter of an alias and the variants whose image it names. */
export interface AliasParameter {
  readonly name: string;
  readonly arch: Arch;
  readonly variants: readonly AmiVariant[];
}

/**
 * The public SSM parameters of an AMI alias (`al2023@latest`, `al2@v20251001`,
 * `bottlerocket@1.46.0`) for a Kubernetes version: one per architecture and variant the family
 * publishes, as Karpenter reads them. AL2023: standard, nvidia and (x86_64) neuron; AL2: standard
 * and the GPU image (x86_64; NVIDIA and Neuron drivers); Bottlerocket: the standard image (its
 * x86_64 build carries the Neuron driver) and the nvidia variant.
 */
export function aliasParameters(alias: string, kubernetesVersion: string): AliasParameter[] {
  const [family, version = 'latest'] = alias.split('@');
  const latest = version === 'latest';
  const eks = `/aws/service/eks/optimized-ami/${kubernetesVersion}`;
  switch (family.toLowerCase()) {
    case 'al2023': {
      const al2023 = (arch: Arch, variant: AmiVariant): AliasParameter => {
        const a = EC2_ARCH[arch];
        const dir = `${eks}/amazon-linux-2023/${a}/${variant}`;
        const leaf = latest
          ? 'recommended'
          : `amazon-eks-node-al2023-${a}-${variant}-${kubernetesVersion}-${version}`;
        return { name: `${dir}/${leaf}/image_id`, arch, variants: [variant] };
      };
      return [
        al2023('amd64', 'standard'),
        al2023('amd64', 'nvidia'),
        al2023('amd64', 'neuron'),
        al2023('arm64', 'standard'),
        al2023('arm64', 'nvidia'),
      ];
    }
    case 'al2': {
      const al2 = (dir: string, prefix: string, arch: Arch, variants: AmiVariant[]): AliasParameter => ({
        name: `${eks}/${dir}/${latest ? 'recommended' : `${prefix}-${kubernetesVersion}-${version}`}/image_id`,
        arch,
        variants,
      });
      return [
        al2('amazon-linux-2', 'amazon-eks-node', 'amd64', ['standard']),
        al2('amazon-linux-2-arm64', 'amazon-eks-arm64-node', 'arm64', ['standard']),
        al2('amazon-linux-2-gpu', 'amazon-eks-gpu-node', 'amd64', ['nvidia', 'neuron']),
      ];
    }
    case 'bottlerocket': {
      const v = latest ? 'latest' : version.replace(/^v/, '');
      const br = (suffix: string, arch: Arch, variants: AmiVariant[]): AliasParameter => ({
        name: `/aws/service/bottlerocket/aws-k8s-${kubernetesVersion}${suffix}/${EC2_ARCH[arch]}/${v}/image_id`,
        arch,
        variants,
      });
      return [
        br('', 'amd64', ['standard', 'neuron']),
        br('', 'arm64', ['standard']),
        br('-nvidia', 'amd64', ['nvidia']),
        br('-nvidia', 'arm64', ['nvidia']),
      ];
    }
    default:
      throw new Error(
        `amiSelectorTerms alias ${JSON.stringify(alias)}: unknown family (use al2023, al2 or bottlerocket)`,
      );
  }
}

/** The public SSM parameter of an alias's standard image for one architecture. */
export function aliasParameter(alias: string, kubernetesVersion: string, arch: Arch): string {
  const found = aliasParameters(alias, kubernetesVersion).find(
    (p) => p.arch === arch && p.variants.includes('standard'),
  );
  if (!found) throw new Error(`amiSelectorTerms alias ${JSON.stringify(alias)}: no ${arch} image`);
  return found.name;
}

const ARCHES = ['amd64', 'arm64'] as const;

/** The newest image of each architecture among `images`. */
function newestPerArch(images: readonly Image[]): Partial<Record<Arch, string>> {
  const result: Partial<Record<Arch, string>> = {};
  for (const arch of ARCHES) {
    const newest = images
      .filter((i) => i.Architecture === EC2_ARCH[arch] && i.ImageId)
      .sort((x, y) => (y.CreationDate ?? '').localeCompare(x.CreationDate ?? ''))[0];
    if (newest) result[arch] = newest.ImageId!;
  }
  return result;
}

/**
 * Resolves AMI selector terms, cached: an alias to its family's image per architecture and
 * variant (the public SSM parameters); other terms to the newest matching image per architecture.
 */
export class AmiProvider {
  private readonly cache: TtlCache<ResolvedImages>;

  constructor(
    private readonly ec2: Ec2Api,
    private readonly ssm: SSMClient,
    /** The cluster's Kubernetes minor version, or its lookup (made on the first alias resolution). */
    private readonly kubernetesVersion: string | (() => Promise<string>),
    now: () => number = Date.now,
  ) {
    this.cache = new TtlCache(CACHE_TTLS.amisMs, now);
  }

  /** AMI ids per architecture (and variant for an alias); throws naming the NodeClass when nothing matches. */
  resolve(terms: readonly AmiSelectorTerm[], what: string): Promise<ResolvedImages> {
    return this.cache.getOrLoad(JSON.stringify(terms), async () => {
      if (terms.length === 0) throw new Error(`${what}: no amiSelectorTerms`);
      const alias = terms.find((t) => t.alias)?.alias;
      const result: ResolvedImages = alias
        ? await this.fromAlias(alias)
        : { images: newestPerArch((await Promise.all(terms.map((t) => this.fromTerm(t, what)))).flat()) };
      const any = Object.keys(result.images).length + Object.keys(result.variantImages ?? {}).length;
      if (any === 0) throw new Error(`${what}: no AMI matches amiSelectorTerms ${JSON.stringify(terms)}`);
      return result;
    });
  }

  /**
   * The images the alias's public parameters name, per architecture and variant (a parameter the
   * region does not publish is skipped, as Karpenter skips it).
   */
  private async fromAlias(alias: string): Promise<ResolvedImages> {
    const version =
      typeof this.kubernetesVersion === 'string' ? this.kubernetesVersion : await this.kubernetesVersion();
    const images: Partial<Record<Arch, string>> = {};
    const variantImages: Record<string, string> = {};
    const parameters = aliasParameters(alias, version);
    const ids = await Promise.all(parameters.map((p) => this.parameter(p.name)));
    parameters.forEach((p, i) => {
      const id = ids[i];
      if (!id) return;
      for (const variant of p.variants) {
        if (variant === 'standard') images[p.arch] = id;
        else variantImages[`${p.arch}/${variant}`] = id;
      }
    });
    return { images, variantImages };
  }

  private async fromTerm(term: AmiSelectorTerm, what: string): Promise<Image[]> {
    if (term.ssmParameter) {
      const id = await this.parameter(term.ssmParameter);
      if (!id) throw new Error(`${what}: SSM parameter ${term.ssmParameter} does not exist`);
      return this.ec2.describeImages([], { imageIds: [id] });
    }
    if (term.id) return this.ec2.describeImages([], { imageIds: [term.id] });
    const filters = Object.entries(term.tags ?? {}).map(([k, v]) =>
      v === '*' ? { Name: 'tag-key', Values: [k] } : { Name: `tag:${k}`, Values: [v] },
    );
    if (term.name) filters.push({ Name: 'name', Values: [term.name] });
    if (filters.length === 0)
      throw new Error(`${what}: an AMI selector term needs alias, id, name, tags or ssmParameter`);
    return this.ec2.describeImages(filters, term.owner ? { owners: [term.owner] } : {});
  }

  private async parameter(name: string): Promise<string | undefined> {
    try {
      return (await this.ssm.send(new GetParameterCommand({ Name: name }))).Parameter?.Value;
    } catch (error) {
      if ((error as { name?: string }).name === 'ParameterNotFound') return undefined;
      throw error;
    }
  }
}
