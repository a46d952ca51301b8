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

  it('reads the region and market steps in the documented syntax', async () => {
    const s = await parse(`${head}region: eu-west-1
steps:
  - market: {spotPrice: {instanceType: c6i.large, zone: eu-west-1a, price: 0.02}}
  - market: {offering: {instanceType: c6i.large, zone: eu-west-1a, capacityType: spot, available: false}}
`);
    expect(s.region).toBe('eu-west-1');
    expect(s.steps.map((x) => ('spec' in x ? x.spec : undefined))).toEqual([
      { spotPrice: { instanceType: 'c6i.large', zone: 'eu-west-1a', price: 0.02 } },
      { offering: { instanceType: 'c6i.large', zone: 'eu-west-1a', capacityType: 'spot', available: false } },
    ]);
    expect((await parse(`${head}steps:\n  - wait: 1s\n`)).region).toBeUndefined();
  });

  it('names what is wrong with a region or a market step', async () => {
    await expect(parse(`${head}region: Europe\nsteps:\n  - wait: 1s\n`)).rejects.toThrow(
      /region: expected an AWS region such as "eu-west-1"/,
    );
    await expect(parse(`${head}steps:\n  - market: {price: 1}\n`)).rejects.toThrow(
      /steps\[0\]\.market: expected \{spotPrice: \{instanceType, zone, price\}\} or \{offering/,
    );
    await expect(
      parse(
        `${head}steps:\n  - market: {spotPrice: {instanceType: c5.large, zone: us-west-2a, price: -1}}\n`,
      ),
    ).rejects.toThrow(/steps\[0\]\.market\.spotPrice\.price/);
    await expect(
      parse(
        `${head}steps:\n  - market: {offering: {instanceType: c5.large, zone: us-west-2a, capacityType: reserved, available: false}}\n`,
      ),
    ).rejects.toThrow(/steps\[0\]\.market\.offering\.capacityType/);
  });

  it('names the file, the step and the field of a bad value', async () => {
    await expect(
      parse(`${head}steps:\n  - wait: 1s\n  - scale: { deployment: web, replicas: -1 }\n`),
    ).rejects.toThrow(/^scenarios\/t\.yaml: steps\[1\]\.scale\.replicas: /);
  });

  it('rejects unknown steps and steps with two keys, listing the kinds', async () => {
    await expect(parse(`${head}steps:\n  - sleep: 1s\n`)).rejects.toThrow(
      /steps\[0\]: unknown step 'sleep' \(expected one of apply, delete, scale, wait, interrupt, fault, expect, patch, mark, market, nodeCondition, deleteNode, capacityReservation, kmsKey\)/,
    );
    await expect(parse(`${head}steps:\n  - { wait: 1s, scale: {} }\n`)).rejects.toThrow(
      /steps\[0\]: a step has exactly one key/,
    );
  });

  it('rejects a nodeCondition step without a valid status, naming the field', async () => {
    await expect(
      parse(`${head}steps:\n  - nodeCondition: { node: 0, type: KernelReady, status: broken }\n`),
    ).rejects.toThrow(/steps\[0\]\.nodeCondition\.status/);
    const ok = await parse(
      `${head}steps:\n  - nodeCondition: { node: { selector: { app: gpu } }, type: Ready, status: "False" }\n`,
    );
    expect(ok.steps[0]).toMatchObject({ kind: 'nodeCondition', spec: { type: 'Ready', status: 'False' } });
  });

  it('rejects bad durations, wait conditions and faults without an effect', async () => {
    await expect(parse(`${head}steps:\n  - wait: soon\n`)).rejects.toThrow(/steps\[0\]\.wait: .*duration/);
    await expect(parse(`${head}steps:\n  - wait: { for: everything }\n`)).rejects.toThrow(/steps\[0\]\.wait/);
    await expect(parse(`${head}steps:\n  - fault: { service: ec2 }\n`)).rejects.toThrow(
      /steps\[0\]\.fault: a fault needs an error, a latencyMs, or both/,
    );
    await expect(parse(`${head}steps:\n  - kmsKey: { key: k, state: Off }\n`)).rejects.toThrow(
      /steps\[0\]\.kmsKey\.state/,
    );
    await expect(
      parse(`${head}steps:\n  - fault: { launchFailure: { code: Client.Nope } }\n`),
    ).rejects.toThrow(/steps\[0\]\.fault\.launchFailure\.code: .*Server\.InsufficientInstanceCapacity/);
    await expect(parse(`${head}account: { kmsKeys: { k: Gone } }\nsteps:\n  - wait: 1s\n`)).rejects.toThrow(
      /account\.kmsKeys\.k/,
    );
  });

  it('reads KMS key states, the kmsKey step and launchFailure faults', async () => {
    const scenario = await parse(
      `${head}account: { kmsKeys: { k1: Disabled } }\nsteps:\n  - kmsKey: { key: k1, state: Enabled }\n  - fault: { launchFailure: { code: Server.InternalError, zone: us-west-2a } }\n`,
    );
    expect(scenario.account.kmsKeys).toEqual({ k1: 'Disabled' });
    expect(scenario.steps.map((s) => s.kind)).toEqual(['kmsKey', 'fault']);
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

  it('reads the disruption steps and expectations', async () => {
    const s = await parse(`${head}steps:
  - patch:
      apiVersion: karpenter.k8s.aws/v1
      kind: EC2NodeClass
      name: default
      merge: { spec: { amiSelectorTerms: [{ alias: al2023@v20250601 }] } }
  - mark: before-drift
  - wait: { for: nodes, count: 2 }
  - expect:
      pdbViolations: 0
      podsLost: 0
      maxDisrupting: { default: 1 }
      nodesRemoved: { default: 2 }
      podsStayed: { selector: { app: critical }, since: before-drift }
  - interrupt: { instance: all, kind: scheduled-change }
  - wait: { for: nodesRemoved, count: 2, timeout: 20m }
expect:
  podsStayed: { selector: { app: critical }, namespace: prod }
`);
    expect(s.steps.map((x) => x.kind)).toEqual(['patch', 'mark', 'wait', 'expect', 'interrupt', 'wait']);
    expect(s.steps[0]).toMatchObject({ spec: { kind: 'EC2NodeClass', name: 'default' } });
    expect(s.steps[1]).toMatchObject({ spec: 'before-drift' });
    expect(s.steps[2]).toMatchObject({ spec: { for: 'nodes', count: 2, timeout: '10m' } });
    expect(s.steps[3]).toMatchObject({
      spec: { pdbViolations: 0, podsLost: 0, maxDisrupting: { default: 1 }, nodesRemoved: { default: 2 } },
    });
    expect(s.steps[4]).toMatchObject({ spec: { instance: 'all', kind: 'scheduled-change' } });
    expect(s.steps[5]).toMatchObject({ spec: { for: 'nodesRemoved', count: 2, timeout: '20m' } });
    expect(s.expect?.podsStayed).toEqual({ selector: { app: 'critical' }, namespace: 'prod' });
  });

  it('names the step and the field of bad disruption steps and expectations', async () => {
    await expect(parse(`${head}steps:\n  - wait: 1s\n  - expect: { pdbViolation: 0 }\n`)).rejects.toThrow(
      /^scenarios\/t\.yaml: steps\[1\]\.expect: Unrecognized key: "pdbViolation"/,
    );
    await expect(parse(`${head}steps:\n  - wait: 1s\nexpect: { podLost: 1 }\n`)).rejects.toThrow(
      /^scenarios\/t\.yaml: expect: Unrecognized key: "podLost"/,
    );
    await expect(
      parse(`${head}steps:\n  - patch: { apiVersion: v1, kind: ConfigMap, merge: { data: {} } }\n`),
    ).rejects.toThrow(/^scenarios\/t\.yaml: steps\[0\]\.patch\.name: /);
    await expect(
      parse(`${head}steps:\n  - patch: { apiVersion: v1, kind: ConfigMap, name: c }\n`),
    ).rejects.toThrow(/steps\[0\]\.patch\.merge: /);
    await expect(parse(`${head}steps:\n  - wait: 1s\n  - wait: { for: nodes }\n`)).rejects.toThrow(
      /^scenarios\/t\.yaml: steps\[1\]\.wait\.count: a wait for nodes needs a count$/,
    );
    await expect(parse(`${head}steps:\n  - wait: { for: idle, count: 2 }\n`)).rejects.toThrow(
      /steps\[0\]\.wait\.count: count is only for a wait for nodes or nodesRemoved/,
    );
    await expect(parse(`${head}steps:\n  - wait: { for: nodesRemoved }\n`)).rejects.toThrow(
      /steps\[0\]\.wait\.count: a wait for nodesRemoved needs a count$/,
    );
    await expect(parse(`${head}steps:\n  - wait: { for: nodes, count: -1 }\n`)).rejects.toThrow(
      /steps\[0\]\.wait\.count: /,
    );
    await expect(parse(`${head}steps:\n  - expect: { maxDisrupting: { default: many } }\n`)).rejects.toThrow(
      /steps\[0\]\.expect\.maxDisrupting\.default: /,
    );
    await expect(parse(`${head}steps:\n  - expect: { podsStayed: { selector: {} } }\n`)).rejects.toThrow(
      /steps\[0\]\.expect\.podsStayed\.selector: give at least one label/,
    );
    await expect(parse(`${head}steps:\n  - mark: ''\n`)).rejects.toThrow(/steps\[0\]\.mark: /);
    await expect(parse(`${head}steps:\n  - expect: { nodesRemoved: { default: -1 } }\n`)).rejects.toThrow(
      /steps\[0\]\.expect\.nodesRemoved\.default: /,
    );
    await expect(parse(`${head}steps:\n  - interrupt: { instance: some }\n`)).rejects.toThrow(
      /steps\[0\]\.interrupt\.instance: /,
    );
  });

  it('requires podsStayed.since to name a mark played before it', async () => {
    await expect(
      parse(`${head}steps:
  - expect: { podsStayed: { selector: { app: a }, since: m1 } }
  - mark: m1
`),
    ).rejects.toThrow(
      'scenarios/t.yaml: steps[0].expect.podsStayed.since: no mark named m1 (no mark step comes before it)',
    );
    await expect(
      parse(`${head}steps:\n  - mark: m1\nexpect: { podsStayed: { selector: { app: a }, since: m2 } }\n`),
    ).rejects.toThrow('scenarios/t.yaml: expect.podsStayed.since: no mark named m2 (marks before it: m1)');
  });

  it('rejects YAML that does not parse', async () => {
    await expect(parse('name: [unclosed\n')).rejects.toThrow(
      /^scenarios\/t\.yaml:\d+:\d+: invalid YAML: [^\n]+$/,
    );
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
