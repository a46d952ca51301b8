import { describe, expect, it } from 'vitest';
import { eksImages } from '../../../../functions/simulator/ec2/eks-images.js';
import {
  driversOfImage,
  withoutMissingDrivers,
} from '../../../../functions/simulator/kube/kubelet/accelerator-drivers.js';

const gpuNode = { cpu: '32', memory: '240Gi', 'nvidia.com/gpu': '4', 'vpc.amazonaws.com/efa': '1' };

describe('accelerator drivers of an AMI', () => {
  it('advertises nvidia.com/gpu only on the NVIDIA variants', () => {
    expect(withoutMissingDrivers(gpuNode, 'amazon-eks-node-al2023-x86_64-nvidia-1.32-v20251001')).toEqual(
      gpuNode,
    );
    expect(withoutMissingDrivers(gpuNode, 'amazon-eks-gpu-node-1.32-v20251001')).toEqual(gpuNode);
    expect(withoutMissingDrivers(gpuNode, 'bottlerocket-aws-k8s-1.32-nvidia-x86_64-v1.46.0')).toEqual(
      gpuNode,
    );
    const standard = withoutMissingDrivers(gpuNode, 'amazon-eks-node-al2023-x86_64-standard-1.32-v20251001');
    expect(standard['nvidia.com/gpu']).toBeUndefined();
    expect(standard).toMatchObject({ cpu: '32', memory: '240Gi', 'vpc.amazonaws.com/efa': '1' });
    expect(
      withoutMissingDrivers(gpuNode, 'bottlerocket-aws-k8s-1.32-x86_64-v1.46.0')['nvidia.com/gpu'],
    ).toBeUndefined();
  });

  it('advertises Neuron devices on the neuron variant, the AL2 GPU image and Bottlerocket x86_64', () => {
    const inf2 = { cpu: '8', 'aws.amazon.com/neuron': '1', 'aws.amazon.com/neuroncore': '2' };
    for (const name of [
      'amazon-eks-node-al2023-x86_64-neuron-1.32-v20251001',
      'amazon-eks-gpu-node-1.32-v20251001',
      'bottlerocket-aws-k8s-1.32-x86_64-v1.46.0',
    ])
      expect(withoutMissingDrivers(inf2, name)).toEqual(inf2);
    expect(withoutMissingDrivers(inf2, 'amazon-eks-node-al2023-x86_64-nvidia-1.32-v20251001')).toEqual({
      cpu: '8',
    });
    expect(withoutMissingDrivers(inf2, 'amazon-eks-node-1.32-v20251001')).toEqual({ cpu: '8' });
  });

  it('knows every EKS-optimized image of the simulated region, and trusts a custom image', () => {
    for (const image of eksImages()) {
      const drivers = driversOfImage(image.name);
      expect(drivers).not.toContain('amd');
      expect(drivers).not.toContain('habana');
    }
    const gaudi = { cpu: '96', 'habana.ai/gaudi': '8', 'amd.com/gpu': '1' };
    expect(withoutMissingDrivers(gaudi, 'my-team-dl1-image-2026')).toEqual(gaudi);
    expect(withoutMissingDrivers(gaudi, 'amazon-eks-gpu-node-1.32-v20251001')).toEqual({ cpu: '96' });
  });
});
