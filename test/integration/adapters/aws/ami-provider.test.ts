import { EC2Client } from '@aws-sdk/client-ec2';
import { SSMClient } from '@aws-sdk/client-ssm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AmiProvider, aliasParameter } from '../../../../functions/adapters/aws/ami-provider.js';
import { TtlCache } from '../../../../functions/adapters/aws/caches.js';
import { createEc2Api } from '../../../../functions/adapters/aws/ec2-api.js';
import { SeededRandom, VirtualClock } from '../../../../functions/simulator/clock.js';
import { type Ec2Simulator, startEc2Simulator } from '../../../../functions/simulator/ec2/ec2-simulator.js';
import { eksImages } from '../../../../functions/simulator/ec2/eks-images.js';
import { type SsmSimulator, startSsmSimulator } from '../../../../functions/simulator/ssm/ssm-simulator.js';
import { testCatalog } from '../../simulator/ec2/test-catalog.js';

const credentials = { accessKeyId: 'AKIDTEST', secretAccessKey: 'secret' };
let ec2Sim: Ec2Simulator;
let ssmSim: SsmSimulator;
let ec2: EC2Client;
let ssm: SSMClient;
let amis: AmiProvider;

beforeAll(async () => {
  ec2Sim = await startEc2Simulator({
    clock: new VirtualClock(),
    random: new SeededRandom(1),
    catalog: testCatalog,
  });
  ssmSim = await startSsmSimulator();
  ec2 = new EC2Client({ endpoint: ec2Sim.url, region: 'us-west-2', credentials });
  ssm = new SSMClient({ endpoint: ssmSim.url, region: 'us-west-2', credentials });
  amis = new AmiProvider(createEc2Api(ec2), ssm, '1.30');
});
afterAll(async () => {
  ec2.destroy();
  ssm.destroy();
  await Promise.all([ec2Sim.close(), ssmSim.close()]);
});

const imageNamed = (name: string) => eksImages().find((i) => i.name === name)!.imageId;

describe('AMI provider', () => {
  it('resolves family@latest aliases through the public SSM parameters, per architecture', async () => {
    expect(await amis.resolve([{ alias: 'al2023@latest' }], 'test')).toEqual({
      images: {
        amd64: imageNamed('amazon-eks-node-al2023-x86_64-standard-1.30-v20251001'),
        arm64: imageNamed('amazon-eks-node-al2023-arm64-standard-1.30-v20251001'),
      },
      variantImages: {
        'amd64/nvidia': imageNamed('amazon-eks-node-al2023-x86_64-nvidia-1.30-v20251001'),
        'amd64/neuron': imageNamed('amazon-eks-node-al2023-x86_64-neuron-1.30-v20251001'),
        'arm64/nvidia': imageNamed('amazon-eks-node-al2023-arm64-nvidia-1.30-v20251001'),
      },
    });
    expect((await amis.resolve([{ alias: 'bottlerocket@latest' }], 'test')).images.arm64).toBe(
      imageNamed('bottlerocket-aws-k8s-1.30-arm64-v1.46.0'),
    );
    expect((await amis.resolve([{ alias: 'al2@latest' }], 'test')).images.amd64).toBe(
      imageNamed('amazon-eks-node-1.30-v20251001'),
    );
  });

  it('resolves the accelerated variants each family publishes, as Karpenter maps them', async () => {
    const br = await amis.resolve([{ alias: 'bottlerocket@latest' }], 'test');
    expect(br.variantImages).toEqual({
      'amd64/nvidia': imageNamed('bottlerocket-aws-k8s-1.30-nvidia-x86_64-v1.46.0'),
      'arm64/nvidia': imageNamed('bottlerocket-aws-k8s-1.30-nvidia-arm64-v1.46.0'),
      // Bottlerocket's standard x86_64 build carries the Neuron driver.
      'amd64/neuron': imageNamed('bottlerocket-aws-k8s-1.30-x86_64-v1.46.0'),
    });
    const al2 = await amis.resolve([{ alias: 'al2@v20250901' }], 'test');
    // The AL2 GPU image serves both NVIDIA and Neuron types; AL2 has no arm64 GPU image.
    expect(al2.variantImages).toEqual({
      'amd64/nvidia': imageNamed('amazon-eks-gpu-node-1.30-v20250901'),
      'amd64/neuron': imageNamed('amazon-eks-gpu-node-1.30-v20250901'),
    });
    const pinned = await amis.resolve([{ alias: 'al2023@v20250901' }], 'test');
    expect(pinned.variantImages?.['amd64/nvidia']).toBe(
      imageNamed('amazon-eks-node-al2023-x86_64-nvidia-1.30-v20250901'),
    );
  });

  it('takes an alias’s images from its parameters alone, without a DescribeImages call', async () => {
    const api = createEc2Api(ec2);
    const noImages = {
      ...api,
      describeImages: async () => {
        throw new Error('DescribeImages is not needed for an alias');
      },
    };
    const aliasOnly = new AmiProvider(noImages, ssm, '1.30');
    expect((await aliasOnly.resolve([{ alias: 'al2023@latest' }], 'test')).images).toEqual({
      amd64: imageNamed('amazon-eks-node-al2023-x86_64-standard-1.30-v20251001'),
      arm64: imageNamed('amazon-eks-node-al2023-arm64-standard-1.30-v20251001'),
    });
  });

  it('resolves pinned versions, names and ids', async () => {
    expect((await amis.resolve([{ alias: 'al2023@v20250901' }], 'test')).images.amd64).toBe(
      imageNamed('amazon-eks-node-al2023-x86_64-standard-1.30-v20250901'),
    );
    expect((await amis.resolve([{ alias: 'bottlerocket@v1.45.0' }], 'test')).images.amd64).toBe(
      imageNamed('bottlerocket-aws-k8s-1.30-x86_64-v1.45.0'),
    );
    const id = imageNamed('amazon-eks-node-1.31-v20250901');
    // Images selected by id, name or tags serve every instance type (no variants).
    expect(await amis.resolve([{ id }], 'test')).toEqual({ images: { amd64: id } });
    expect(
      (await amis.resolve([{ name: 'amazon-eks-node-al2023-x86_64-standard-1.31-*' }], 'test')).images.amd64,
    ).toBe(imageNamed('amazon-eks-node-al2023-x86_64-standard-1.31-v20251001'));
  });

  it('names the NodeClass when nothing matches or the alias is unknown', async () => {
    await expect(amis.resolve([{ name: 'no-such-image-*' }], 'NodeClass x amiSelectorTerms')).rejects.toThrow(
      /NodeClass x amiSelectorTerms: no AMI matches/,
    );
    expect(() => aliasParameter('ubuntu@latest', '1.30', 'amd64')).toThrow(/unknown family/);
  });
});

describe('TTL cache', () => {
  it('expires entries on its clock and shares concurrent loads', async () => {
    let now = 0;
    const cache = new TtlCache<number>(1000, () => now);
    let loads = 0;
    const load = async () => ++loads;
    expect(await Promise.all([cache.getOrLoad('k', load), cache.getOrLoad('k', load)])).toEqual([1, 1]);
    now = 999;
    expect(await cache.getOrLoad('k', load)).toBe(1);
    now = 1000;
    expect(await cache.getOrLoad('k', load)).toBe(2);
  });
});
