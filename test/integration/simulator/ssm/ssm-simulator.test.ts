import { GetParameterCommand, GetParametersCommand, ParameterNotFound, SSMClient } from '@aws-sdk/client-ssm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eksImages } from '../../../../functions/simulator/ec2/eks-images.js';
import { FaultInjector } from '../../../../functions/simulator/faults.js';
import { type SsmSimulator, startSsmSimulator } from '../../../../functions/simulator/ssm/ssm-simulator.js';

describe('simulated SSM parameter store', () => {
  let sim: SsmSimulator;
  let ssm: SSMClient;
  const faults = new FaultInjector();
  const images = eksImages();

  beforeAll(async () => {
    sim = await startSsmSimulator({ faults, parameters: { '/joiner/test': 'hello' } });
    ssm = new SSMClient({
      endpoint: sim.url,
      region: 'us-west-2',
      credentials: { accessKeyId: 'AKIDTEST', secretAccessKey: 'secret' },
      maxAttempts: 1,
    });
  });

  afterAll(async () => {
    ssm.destroy();
    await sim.close();
  });

  it('resolves the AL2023 recommended image of a Kubernetes version to the latest release', async () => {
    const name = '/aws/service/eks/optimized-ami/1.31/amazon-linux-2023/x86_64/standard/recommended/image_id';
    const out = await ssm.send(new GetParameterCommand({ Name: name }));
    const image = images.find((i) => i.imageId === out.Parameter?.Value);
    expect(image?.name).toBe('amazon-eks-node-al2023-x86_64-standard-1.31-v20251001');
    expect(out.Parameter?.DataType).toBe('aws:ec2:image');
  });

  it('serves Amazon Linux 2 and Bottlerocket aliases for both architectures', async () => {
    const al2 = await ssm.send(
      new GetParameterCommand({
        Name: '/aws/service/eks/optimized-ami/1.30/amazon-linux-2-arm64/recommended/image_id',
      }),
    );
    expect(images.find((i) => i.imageId === al2.Parameter?.Value)?.architecture).toBe('arm64');
    const br = await ssm.send(
      new GetParameterCommand({ Name: '/aws/service/bottlerocket/aws-k8s-1.32/x86_64/latest/image_id' }),
    );
    expect(images.find((i) => i.imageId === br.Parameter?.Value)?.name).toMatch(
      /^bottlerocket-aws-k8s-1\.32-x86_64-/,
    );
  });

  it('pins a release with a versioned parameter', async () => {
    const name =
      '/aws/service/eks/optimized-ami/1.31/amazon-linux-2023/arm64/standard/amazon-eks-node-al2023-arm64-standard-1.31-v20250901/image_id';
    const out = await ssm.send(new GetParameterCommand({ Name: name }));
    expect(images.find((i) => i.imageId === out.Parameter?.Value)?.name).toBe(
      'amazon-eks-node-al2023-arm64-standard-1.31-v20250901',
    );
  });

  it('answers an unknown parameter with a typed ParameterNotFound', async () => {
    await expect(ssm.send(new GetParameterCommand({ Name: '/nope' }))).rejects.toBeInstanceOf(
      ParameterNotFound,
    );
  });

  it('lists found and invalid names with GetParameters', async () => {
    const out = await ssm.send(new GetParametersCommand({ Names: ['/joiner/test', '/missing'] }));
    expect(out.Parameters?.map((p) => p.Value)).toEqual(['hello']);
    expect(out.InvalidParameters).toEqual(['/missing']);
  });

  it('throttles when a fault is injected', async () => {
    faults.inject({ service: 'ssm', action: 'GetParameter', error: 'ThrottlingException', times: 1 });
    await expect(ssm.send(new GetParameterCommand({ Name: '/joiner/test' }))).rejects.toMatchObject({
      name: 'ThrottlingException',
    });
    const out = await ssm.send(new GetParameterCommand({ Name: '/joiner/test' }));
    expect(out.Parameter?.Value).toBe('hello');
  });
});
