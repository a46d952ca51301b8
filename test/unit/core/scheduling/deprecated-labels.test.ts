/**
 * Deprecated well-known labels in pod selectors and affinities are read as their GA labels, as
 * Karpenter normalizes them: `failure-domain.beta.kubernetes.io/zone`, `beta.kubernetes.io/instance-type`,
 * `beta.kubernetes.io/arch`, `beta.kubernetes.io/os`, `failure-domain.beta.kubernetes.io/region`.
 */
import { describe, expect, it } from 'vitest';
import { bundledCatalog } from '../../../../functions/core/catalog/bundled.js';
import { schedulingPools } from '../../../../functions/core/scheduling/prepare.js';
import { schedule } from '../../../../functions/core/scheduling/schedule.js';
import { nodeClass, nodePool } from '../../../builders/config.js';
import { pod } from '../../../builders/workloads.js';

function plan(nodeSelector: Record<string, string>) {
  const result = schedule({
    pods: [pod({ name: 'web', requests: { cpu: '1' }, nodeSelector })],
    nodes: [],
    inFlight: [],
    daemonSets: [],
    persistentVolumes: [],
    persistentVolumeClaims: [],
    pools: schedulingPools([nodePool({ name: 'general' })], [nodeClass()], bundledCatalog),
  });
  return result;
}

describe('deprecated well-known labels', () => {
  it('failure-domain.beta.kubernetes.io/zone selects the zone', () => {
    const result = plan({ 'failure-domain.beta.kubernetes.io/zone': 'us-west-2c' });
    expect(result.unschedulable).toEqual([]);
    expect(new Set(result.nodeClaims[0].instanceTypeOptions.map((o) => o.zone))).toEqual(
      new Set(['us-west-2c']),
    );
  });

  it('beta.kubernetes.io/instance-type and beta.kubernetes.io/arch select the type', () => {
    const result = plan({
      'beta.kubernetes.io/instance-type': 'm6g.xlarge',
      'beta.kubernetes.io/arch': 'arm64',
    });
    expect(result.unschedulable).toEqual([]);
    expect(new Set(result.nodeClaims[0].instanceTypeOptions.map((o) => o.instanceType))).toEqual(
      new Set(['m6g.xlarge']),
    );
  });
});
