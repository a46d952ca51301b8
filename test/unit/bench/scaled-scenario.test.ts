import { describe, expect, it } from 'vitest';
import { scaledScenario } from '../../../bench/lib/scaled-scenario.js';
import { parseScenario } from '../../../functions/simulator/scenario/load-scenario.js';

const TEXT = `
name: sized
steps:
  - scale: { deployment: web, replicas: 500 }
  - wait: { for: nodes, count: 200 }
  - wait: 20s
  - wait: { for: nodesRemoved, count: 200, timeout: 20m }
  - expect: { pods: { total: 500, running: 500 }, nodes: { count: 500, instanceTypes: { c5.large: 3 } } }
expect:
  pods: { total: 500, running: 500, pending: 0 }
  nodes: { count: 500 }
`;

describe('scaledScenario', () => {
  it('multiplies replicas, node-count waits and expected pod and node counts; leaves the rest', async () => {
    const scenario = await parseScenario(TEXT, '/tmp/sized.yaml');
    const small = scaledScenario(scenario, 0.02);
    expect(small.name).toBe('sized x0.02');
    expect(small.steps[0]).toMatchObject({ kind: 'scale', spec: { deployment: 'web', replicas: 10 } });
    expect(small.steps[1]).toMatchObject({ kind: 'wait', spec: { for: 'nodes', count: 4 } });
    expect(small.steps[2]).toEqual(scenario.steps[2]);
    expect(small.steps[3]).toMatchObject({
      kind: 'wait',
      spec: { for: 'nodesRemoved', count: 4, timeout: '20m' },
    });
    expect(small.steps[4]).toMatchObject({
      kind: 'expect',
      spec: { pods: { total: 10, running: 10 }, nodes: { count: 10, instanceTypes: { 'c5.large': 3 } } },
    });
    expect(small.expect).toEqual({ pods: { total: 10, running: 10, pending: 0 }, nodes: { count: 10 } });
    // Counts the expectation does not give stay absent (an absent count is not checked).
    expect(Object.keys(small.steps[4].kind === 'expect' ? (small.steps[4].spec.pods ?? {}) : {})).toEqual([
      'total',
      'running',
    ]);
  });

  it('keeps a count of at least one, and the scenario itself at factor 1', async () => {
    const scenario = await parseScenario(TEXT, '/tmp/sized.yaml');
    expect(scaledScenario(scenario, 0.0001).steps[0]).toMatchObject({ spec: { replicas: 1 } });
    expect(scaledScenario(scenario, 1)).toBe(scenario);
  });

  it('refuses a factor that is not a positive number', async () => {
    const scenario = await parseScenario(TEXT, '/tmp/sized.yaml');
    expect(() => scaledScenario(scenario, 0)).toThrow(/factor must be a positive number, got 0/);
    expect(() => scaledScenario(scenario, Number.NaN)).toThrow(/positive number/);
  });
});
