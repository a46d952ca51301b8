import type { Image } from '@aws-sdk/client-ec2';
import { GetParameterCommand, type SSMClient } from '@aws-sdk/client-ssm';
import type { AmiSelectorTerm } from '../../core/model/node-class.js';
import { CACHE_TTLS, TtlCache } from './caches.js';
import type { Ec2Api } from './ec2-api.js';

export type Arch = 'amd64' | 'arm64';
const EC2_ARCH: Record<Arch, 'x86_64' | 'arm64'> = { amd64: 'x86_64', arm64: 'arm64' };

/**
 * The public SSM parameter of an AMI alias (`al2023@latest`, `al2@v20251001`,
 * `bottlerocket@1.46.0`) for a Kubernetes version and architecture.
 */
export function aliasParameter(alias: string, kubernetesVersion: string, arch: Arch): string {
  const [family, version = 'latest'] = alias.split('@');
  const a = EC2_ARCH[arch];
  const eks = `/aws/service/eks/optimized-ami/${kubernetesVersion}`;
  switch (family.toLowerCase()) {
    case 'al2023': {
      const dir = `${eks}/amazon-linux-2023/${a}/standard`;
      return version === 'latest'
        ? `${dir}/recommended/image_id`
        : `${dir}/amazon-eks-node-al2023-${a}-standard-${kubernetesVersion}-${version}/image_id`;
    }
    case 'al2': {
      const flavour = arch === 'arm64' ? '-arm64' : '';
      const dir = `${eks}/amazon-linux-2${flavour}`;
      return version === 'latest'
        ? `${dir}/recommended/image_id`
        : `${dir}/amazon-eks${flavour}-node-${kubernetesVersion}-${version}/image_id`;
    }
    case 'bottlerocket':
      return `/aws/service/bottlerocket/aws-k8s-${kubernetesVersion}/${a}/${version === 'latest' ? 'latest' : version.replace(/^v/, '')}/image_id`;
    default:
      throw new Error(
        `amiSelectorTerms alias ${JSON.stringify(alias)}: unknown family (use al2023, al2 or bottlerocket)`,
      );
  }
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

/** Resolves AMI selector terms to one image per architecture (the newest match), cached. */
export class AmiProvider {
  private readonly cache: TtlCache<Partial<Record<Arch, string>>>;

  constructor(
    private readonly ec2: Ec2Api,
    private readonly ssm: SSMClient,
    /** The cluster's Kubernetes minor version, or its lookup (made on the first alias resolution). */
    private readonly kubernetesVersion: string | (() => Promise<string>),
    now: () => number = Date.now,
  ) {
    this.cache = new TtlCache(CACHE_TTLS.amisMs, now);
  }

  /** AMI id per architecture; throws naming the NodeClass when nothing matches. */
  resolve(terms: readonly AmiSelectorTerm[], what: string): Promise<Partial<Record<Arch, string>>> {
    return this.cache.getOrLoad(JSON.stringify(terms), async () => {
      if (terms.length === 0) throw new Error(`${what}: no amiSelectorTerms`);
      const alias = terms.find((t) => t.alias)?.alias;
      const result = alias
        ? await this.fromAlias(alias)
        : newestPerArch((await Promise.all(terms.map((t) => this.fromTerm(t, what)))).flat());
      if (!result.amd64 && !result.arm64)
        throw new Error(`${what}: no AMI matches amiSelectorTerms ${JSON.stringify(terms)}`);
      return result;
    });
  }

  /** The image of each architecture the alias's public parameters name (the parameter is per architecture). */
  private async fromAlias(alias: string): Promise<Partial<Record<Arch, string>>> {
    const version =
      typeof this.kubernetesVersion === 'string' ? this.kubernetesVersion : await this.kubernetesVersion();
    const result: Partial<Record<Arch, string>> = {};
    await Promise.all(
      ARCHES.map(async (arch) => {
        const id = await this.parameter(aliasParameter(alias, version, arch));
        if (id) result[arch] = id;
      }),
    );
    return result;
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
