import { describe, expect, it } from 'vitest';
import { bundledCatalog } from '../../../../functions/core/catalog/bundled.js';
import { resolveInstanceTypes } from '../../../../functions/core/catalog/resolve.js';
import { schedule } from '../../../../functions/core/scheduling/schedule.js';
import { nodePool } from '../../../builders/config.js';
import { pod, pods } from '../../../builders/workloads.js';
import { input, pool } from './fixtures.js';

const FAMILY = 'karpenter.k8s.aws/instance-family';
const types = resolveInstanceTypes(bundledCatalog, undefined);

/** The instance types the first claim of a plan may launch, for pods in a pool limited to `families`. */
function optionsFor(families: string[], requests: Record<string, string> = { cpu: '1', memory: '2Gi' }) {
  const p = nodePool({ requirements: [{ key: FAMILY, operator: 'In', values: families }] });
  const plan = schedule(input({ pods: pods(2, 'app', { requests }), pools: [pool(p, types)] }));
  expect(plan.unschedulable).toEqual([]);
  expect(plan.nodeClaims.length).toBeGreaterThan(0);
  return plan.nodeClaims.flatMap((c) => c.instanceTypeOptions.map((o) => o.instanceType));
}

describe('NodePools naming the families Karpenter users often list', () => {
  it.each([['c5d'], ['m5a'], ['c4'], ['r4'], ['m4'], ['c5a'], ['r5a'], ['r5d'], ['r6a'], ['t3a']])(
    'plan pods onto %s from the bundled catalog',
    (family) => {
      const options = optionsFor([family]);
      for (const name of options) expect(name.startsWith(`${family}.`), name).toBe(true);
    },
  );

  it('plan a pool of c5d and m5a onto the cheaper fitting type, the other family kept as an option', () => {
    const options = optionsFor(['c5d', 'm5a'], { cpu: '1', memory: '3Gi' });
    // Two pods of 1 vCPU / 3 GiB: m5a.xlarge (4 vCPU, 16 GiB, $0.172) is cheaper than c5d.2xlarge.
    expect(options[0]).toBe('m5a.xlarge');
    expect(options.some((n) => n.startsWith('c5d.'))).toBe(true);
  });

  it('plan a pod asking for a Neuron device onto inf2', () => {
    const neuron = pod({
      name: 'infer',
      requests: { cpu: '2', memory: '4Gi', 'aws.amazon.com/neuron': '1' },
    });
    const plan = schedule(input({ pods: [neuron], pools: [pool(nodePool(), types)] }));
    expect(plan.unschedulable).toEqual([]);
    expect(plan.nodeClaims[0].instanceTypeOptions[0].instanceType).toBe('inf2.xlarge');
  });
});
