/**
 * Every label Karpenter derives from the instance type is computed from the catalog and enforced
 * (a requirement, a NodePool label or a pod selector on it picks types, never labels a node that
 * does not have it), or refused at validate with the reason.
 */
import { describe, expect, it } from 'vitest';
import { bundledCatalog } from '../../../../functions/core/catalog/bundled.js';
import { instanceTypeLabels } from '../../../../functions/core/catalog/labels.js';
import type { Requirement } from '../../../../functions/core/model/requirement.js';
import { schedulingPools } from '../../../../functions/core/scheduling/prepare.js';
import { schedule } from '../../../../functions/core/scheduling/schedule.js';
import { nodeClass, nodePool } from '../../../builders/config.js';
import { pod } from '../../../builders/workloads.js';
import { DEFAULT_NODE_CLASS, errorsOf, load, v1Pool } from '../model/config/helpers.js';

const MANUFACTURER = 'karpenter.k8s.aws/instance-cpu-manufacturer';
const CLOCK = 'karpenter.k8s.aws/instance-cpu-sustained-clock-speed-mhz';
const TENANCY = 'karpenter.k8s.aws/instance-tenancy';
const GPU_COUNT = 'karpenter.k8s.aws/instance-gpu-count';

const typeOf = (name: string) => {
  const t = bundledCatalog.instanceTypes.find((i) => i.name === name);
  if (!t) throw new Error(`no ${name} in the bundled catalog`);
  return t;
};

function plan(
  o: { requirements?: Requirement[]; labels?: Record<string, string> },
  selector?: Record<string, string>,
) {
  const pools = schedulingPools(
    [nodePool({ name: 'general', requirements: o.requirements ?? [], labels: o.labels ?? {} })],
    [nodeClass()],
    bundledCatalog,
  );
  const result = schedule({
    pods: [pod({ name: 'web', requests: { cpu: '1' }, ...(selector ? { nodeSelector: selector } : {}) })],
    nodes: [],
    inFlight: [],
    daemonSets: [],
    persistentVolumes: [],
    persistentVolumeClaims: [],
    pools,
  });
  const types = new Set(result.nodeClaims.flatMap((c) => c.instanceTypeOptions.map((x) => x.instanceType)));
  return { result, types: [...types] };
}

const manufacturerOf = (name: string) => instanceTypeLabels(typeOf(name), 'us-west-2')[MANUFACTURER];

describe('labels Karpenter derives from the instance type, computed from the catalog', () => {
  it('cpu manufacturer, sustained clock speed and tenancy', () => {
    expect(instanceTypeLabels(typeOf('m6a.large'), 'us-west-2')).toMatchObject({
      [MANUFACTURER]: 'amd',
      [CLOCK]: '3600',
      [TENANCY]: 'default',
    });
    expect(manufacturerOf('m6g.large')).toBe('aws');
    expect(manufacturerOf('m5.large')).toBe('intel');
    expect(manufacturerOf('g5.xlarge')).toBe('amd');
  });
});

describe('requirements on them pick instance types', () => {
  it('a NodePool requirement on the cpu manufacturer launches only that manufacturer', () => {
    const { result, types } = plan({
      requirements: [{ key: MANUFACTURER, operator: 'In', values: ['amd'] }],
    });
    expect(result.unschedulable).toEqual([]);
    expect(types.length).toBeGreaterThan(0);
    expect(types.every((t) => manufacturerOf(t) === 'amd')).toBe(true);
  });

  it('a NodePool label on the cpu manufacturer acts as a requirement, as in Karpenter', () => {
    const { types } = plan({ labels: { [MANUFACTURER]: 'intel' } });
    expect(types.length).toBeGreaterThan(0);
    expect(types.every((t) => manufacturerOf(t) === 'intel')).toBe(true);
  });

  it('a pod selector on the clock speed picks types that have it', () => {
    const { result, types } = plan({}, { [CLOCK]: '3600' });
    expect(result.unschedulable).toEqual([]);
    expect(types.every((t) => instanceTypeLabels(typeOf(t), 'us-west-2')[CLOCK] === '3600')).toBe(true);
  });

  it('a GPU requirement on a pool with no GPU types leaves the pod pending, never labels a CPU node', () => {
    const { result } = plan({
      requirements: [
        { key: 'karpenter.k8s.aws/instance-family', operator: 'In', values: ['c5'] },
        { key: GPU_COUNT, operator: 'Gt', values: ['0'] },
      ],
    });
    expect(result.nodeClaims).toEqual([]);
    expect(result.unschedulable).toHaveLength(1);
  });
});

describe('labels joiner does not compute are refused at validate, with the reason', () => {
  it.each([
    ['karpenter.k8s.aws/capacity-reservation-id', 'In', ['cr-123']],
    ['karpenter.k8s.aws/capacity-reservation-type', 'In', ['default']],
    [TENANCY, 'In', ['dedicated']],
  ])('a NodePool requirement on %s', (key, operator, values) => {
    const loaded = load(DEFAULT_NODE_CLASS, v1Pool('p', { requirements: [{ key, operator, values }] }));
    const errors = errorsOf(loaded);
    expect(errors).toEqual([
      expect.objectContaining({
        path: 'spec.template.spec.requirements[0].key',
        message: expect.stringMatching(/not supported/),
      }),
    ]);
  });

  it('a NodePool requirement and label on the zone id are accepted (zone IDs come from the subnets)', () => {
    const required = load(
      DEFAULT_NODE_CLASS,
      v1Pool('p', {
        requirements: [{ key: 'topology.k8s.aws/zone-id', operator: 'In', values: ['usw2-az1'] }],
      }),
    );
    expect(errorsOf(required)).toEqual([]);
    const labelled = load(DEFAULT_NODE_CLASS, {
      ...(v1Pool('p') as Record<string, unknown>),
      spec: {
        template: {
          metadata: { labels: { 'topology.k8s.aws/zone-id': 'usw2-az1' } },
          spec: { nodeClassRef: { group: 'karpenter.k8s.aws', kind: 'EC2NodeClass', name: 'default' } },
        },
      },
    });
    expect(errorsOf(labelled)).toEqual([]);
  });

  it('tenancy default is accepted', () => {
    const loaded = load(
      DEFAULT_NODE_CLASS,
      v1Pool('p', { requirements: [{ key: TENANCY, operator: 'In', values: ['default'] }] }),
    );
    expect(errorsOf(loaded)).toEqual([]);
  });
});
