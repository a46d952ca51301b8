import { describe, expect, it } from 'vitest';
import { percentile } from '../../../../functions/simulator/scenario/latency-recorder.js';
import { parseScenario } from '../../../../functions/simulator/scenario/load-scenario.js';

const head = 'name: t\n';
const parse = (text: string) => parseScenario(text, 'scenarios/t.yaml');

describe('scenario files', () => {
  it('reads steps with their defaults and inline manifests', async () => {
    const s = await parse(`${head}steps:
  - apply:
      - { apiVersion: v1, kind: ConfigMap, metadata: { name: c } }
  - scale: { deployment: web, replicas: 3 }
  - wait: 30s
  - wait: { for: podsRunning }
  - interrupt: { instance: 0 }
  - fault: { ice: { instanceType: c5.large, zone: us-west-2a } }
  - fault: { service: ec2, action: CreateFleet, error: RequestLimitExceeded, probability: 0.2 }
`);
    expect(s.seed).toBe(1);
    expect(s.clusterName).toBe('joiner-sim');
    expect(s.steps.map((x) => x.kind)).toEqual([
      'apply',
      'scale',
      'wait',
      'wait',
      'interrupt',
      'fault',
      'fault',
    ]);
    expect(s.steps[1]).toMatchObject({ spec: { deployment: 'web', namespace: 'default', replicas: 3 } });
    expect(s.steps[3]).toMatchObject({ spec: { for: 'podsRunning', timeout: '10m' } });
    expect(s.steps[4]).toMatchObject({ spec: { instance: 0, kind: 'spot-interruption' } });
    expect(s.steps[5]).toMatchObject({ spec: { ice: { capacityType: 'on-demand' } } });
  });

  it('names the file, the step and the field of a bad value', async () => {
    await expect(
      parse(`${head}steps:\n  - wait: 1s\n  - scale: { deployment: web, replicas: -1 }\n`),
    ).rejects.toThrow(/^scenarios\/t\.yaml: steps\[1\]\.scale\.replicas: /);
  });

  it('rejects unknown steps and steps with two keys, listing the kinds', async () => {
    await expect(parse(`${head}steps:\n  - sleep: 1s\n`)).rejects.toThrow(
      /steps\[0\]: unknown step 'sleep' \(expected one of apply, delete, scale, wait, interrupt, fault, expect\)/,
    );
    await expect(parse(`${head}steps:\n  - { wait: 1s, scale: {} }\n`)).rejects.toThrow(
      /steps\[0\]: a step has exactly one key/,
    );
  });

  it('rejects bad durations, wait conditions and faults without an effect', async () => {
    await expect(parse(`${head}steps:\n  - wait: soon\n`)).rejects.toThrow(/steps\[0\]\.wait: .*duration/);
    await expect(parse(`${head}steps:\n  - wait: { for: everything }\n`)).rejects.toThrow(/steps\[0\]\.wait/);
    await expect(parse(`${head}steps:\n  - fault: { service: ec2 }\n`)).rejects.toThrow(
      /steps\[0\]\.fault: a fault needs an error, a latencyMs, or both/,
    );
  });

  it('names missing top-level fields, unknown expectations and missing manifest files', async () => {
    await expect(parse('steps:\n  - wait: 1s\n')).rejects.toThrow(/scenarios\/t\.yaml: name: /);
    await expect(parse(`${head}steps:\n  - expect: { pods: { runing: 2 } }\n`)).rejects.toThrow(
      /steps\[0\]\.expect\.pods/,
    );
    await expect(parse(`${head}steps:\n  - apply: [{ file: nowhere.yaml }]\n`)).rejects.toThrow(
      /steps\[0\]\.apply\[0\]\.file: no such file .*nowhere\.yaml/,
    );
    await expect(parse(`${head}steps:\n  - apply: [{ kind: Pod }]\n`)).rejects.toThrow(
      /steps\[0\]\.apply\[0\]\.apiVersion/,
    );
  });

  it('rejects YAML that does not parse', async () => {
    await expect(parse('name: [unclosed\n')).rejects.toThrow(/scenarios\/t\.yaml: invalid YAML/);
  });
});

describe('percentile', () => {
  it('takes the nearest rank', () => {
    const xs = Array.from({ length: 100 }, (_, i) => 100 - i);
    expect(percentile(xs, 50)).toBe(50);
    expect(percentile(xs, 99)).toBe(99);
    expect(percentile([7], 99)).toBe(7);
    expect(percentile([], 50)).toBeUndefined();
  });
});
