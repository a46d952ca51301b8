/**
 * Kubelet settings of a NodeClass reach the node on every AMI family (none accepted and dropped),
 * and an EC2NodeClass `context` (an EC2 Fleet context joiner does not send) is refused at validate.
 */
import { describe, expect, it } from 'vitest';
import type { BootstrapInput } from '../../../../functions/core/launch/bootstrap.js';
import { renderUserData } from '../../../../functions/core/launch/user-data.js';
import { DEFAULT_NODE_CLASS, errorsOf, load } from '../model/config/helpers.js';

const input: BootstrapInput = {
  family: 'AL2',
  cluster: {
    name: 'c',
    endpoint: 'https://api.example',
    certificateAuthority: 'Q0E=',
    serviceCidr: '10.100.0.0/16',
  },
  labels: {},
  taints: [],
  maxPods: 29,
  kubelet: {
    evictionSoft: { 'memory.available': '500Mi' },
    evictionSoftGracePeriod: { 'memory.available': '1m0s' },
    evictionMaxPodGracePeriod: 60,
    imageGCHighThresholdPercent: 85,
    imageGCLowThresholdPercent: 80,
    cpuCFSQuota: false,
  },
};

describe('kubelet settings reach the node', () => {
  it('AL2: eviction-soft, its grace periods, image GC thresholds and CPU CFS quota are kubelet flags', () => {
    const text = renderUserData(input);
    for (const flag of [
      '--eviction-soft=memory.available<500Mi',
      '--eviction-soft-grace-period=memory.available=1m0s',
      '--eviction-max-pod-grace-period=60',
      '--image-gc-high-threshold=85',
      '--image-gc-low-threshold=80',
      '--cpu-cfs-quota=false',
    ])
      expect(text).toContain(flag);
  });

  it('Bottlerocket: soft eviction, image GC thresholds and CPU CFS quota are settings', () => {
    const text = renderUserData({ ...input, family: 'Bottlerocket' });
    expect(text).toContain('eviction-max-pod-grace-period = 60');
    expect(text).toContain('[settings.kubernetes.eviction-soft]\n"memory.available" = "500Mi"');
    expect(text).toContain('[settings.kubernetes.eviction-soft-grace-period]\n"memory.available" = "1m0s"');
    expect(text).toContain('image-gc-high-threshold-percent = 85');
    expect(text).toContain('image-gc-low-threshold-percent = 80');
    expect(text).toContain('cpu-cfs-quota-enforced = false');
  });
});

describe('EC2NodeClass context', () => {
  it('is refused at validate with the reason', () => {
    const loaded = load({
      ...DEFAULT_NODE_CLASS,
      spec: { ...DEFAULT_NODE_CLASS.spec, context: 'lt-context-1' },
    });
    expect(errorsOf(loaded)).toEqual([
      expect.objectContaining({
        path: 'spec.context',
        message: expect.stringMatching(/context is not supported/),
      }),
    ]);
  });
});
