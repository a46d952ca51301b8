import { describe, expect, it } from 'vitest';
import { renderReport } from '../../functions/simulator/report/html-report.js';
import { formatSummary } from '../../functions/simulator/scenario/format-summary.js';
import { explain, runShippedScenario } from './scenario-runner.js';

describe('specialist capacity scenarios', () => {
  it('seed 003 specialist pool: GPU pods on p3 with the NVIDIA AMI, web pods off the tainted pool, the cpu limit holds', async () => {
    const result = await runShippedScenario('seed-003-specialist-gpu');
    expect(result.failures, explain(result)).toEqual([]);
    const nodes = result.summary.nodes;
    const gpu = nodes.filter((n) => n.nodePool === 'specialist-compute');
    const other = nodes.filter((n) => n.nodePool !== 'specialist-compute');
    // 14 x 64 vCPU = 896 <= 900: a 15th p3.16xlarge would pass the limit.
    expect(gpu.map((n) => n.instanceType)).toEqual(Array(14).fill('p3.16xlarge'));
    expect(gpu.reduce((sum, n) => sum + n.pods, 0)).toBe(14);
    // Booted from the AL2 GPU image (amiFamily AL2), whose NVIDIA driver advertises the GPUs.
    for (const n of gpu) expect(n.ami?.name, n.name).toMatch(/^amazon-eks-gpu-node-1\.\d+-v\d+$/);
    // The web pods never land on the tainted GPU pool; their nodes boot the standard image.
    expect(other.length).toBeGreaterThan(0);
    for (const n of other) {
      expect(n.instanceType).toMatch(/^(m5|r5)\./);
      expect(n.ami?.name).toMatch(/^amazon-eks-node-1\.\d+-v\d+$/);
    }
    expect(other.reduce((sum, n) => sum + n.pods, 0)).toBe(3);
    // The text summary and the HTML node table name each node's AMI, id and name.
    const first = gpu[0];
    const text = formatSummary(result);
    expect(text).toContain(`${first.name}  p3.16xlarge`);
    expect(text).toContain(`ami ${first.ami?.id} (${first.ami?.name})`);
    const html = renderReport(result, { seed: 1 });
    expect(html).toContain('<th>AMI</th>');
    expect(html).toContain(`${first.ami?.id}<br>${first.ami?.name}`);
  }, 180_000);
});

describe('node repair scenario', () => {
  it('replaces the node that reports AcceleratedHardwareReady=False once its 10-minute toleration has passed', async () => {
    const result = await runShippedScenario('node-repair');
    expect(result.failures, explain(result)).toEqual([]);
    const reported = result.log.findIndex((l) => l.includes('reports AcceleratedHardwareReady=False'));
    const marked = result.log.findIndex((l) => l.includes('mark before-repair'));
    const repaired = result.log.findIndex(
      (l) => l.includes('disrupting node(s) via delete') && l.includes('"reason":"unhealthy"'),
    );
    expect(reported, explain(result)).toBeGreaterThan(-1);
    // Nothing before the toleration ends (the 9-minute wait), the forceful repair after it.
    expect(repaired, explain(result)).toBeGreaterThan(marked);
    expect(result.log[repaired]).toContain(
      'AcceleratedHardwareReady=False (NvidiaXID79) past its toleration',
    );
    expect(result.log[repaired]).toContain('"forceful":true');
    expect(result.log.slice(reported, marked).some((l) => l.includes('"reason":"unhealthy"'))).toBe(false);
  }, 180_000);
});
