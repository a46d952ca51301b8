import { describe, expect, it } from 'vitest';
import type { Node } from '../../functions/core/model/kube-objects.js';
import { formatSummary } from '../../functions/simulator/scenario/format-summary.js';
import { explain, runShippedScenario } from './scenario-runner.js';

const EFA = 'vpc.amazonaws.com/efa';

describe('EFA pods in the simulated cloud', () => {
  it('MPI ranks on c5n.9xlarge with 1 EFA, the trainer on a p4d.24xlarge with 4, web on a node without, Multus beside', async () => {
    let nodes: Node[] = [];
    let interfaceTypes = new Map<string, string[]>();
    const result = await runShippedScenario('efa-pod', {
      inspect: async (cloud) => {
        nodes = cloud.kube.store.list<Node>('v1', 'Node');
        interfaceTypes = new Map(
          [...cloud.ec2.state.instances.values()]
            .filter((i) => i.state === 'running')
            .map((i) => [
              i.instanceType,
              i.networkInterfaces
                .map((e) => `${e.networkCardIndex}/${e.deviceIndex}/${e.interfaceType}`)
                .sort(),
            ]),
        );
      },
    });
    expect(result.failures, explain(result)).toEqual([]);
    expect(result.summary.iam).toMatchObject({ enforced: true, denied: [] });
    const byType = (t: string) => result.summary.nodes.filter((n) => n.instanceType === t);
    expect(byType('c5n.9xlarge'), explain(result)).toHaveLength(2);
    expect(byType('p4d.24xlarge')).toHaveLength(1);
    for (const n of byType('c5n.9xlarge')) expect(n.efaInterfaces).toBe(1);
    expect(byType('p4d.24xlarge')[0].efaInterfaces).toBe(4);
    // Every node has its Multus interface (card 0, device index 1); EFA interfaces are not counted as Multus.
    for (const n of result.summary.nodes) expect(n.multusEnis.map((e) => e.deviceIndex)).toEqual([1]);
    expect(interfaceTypes.get('p4d.24xlarge')).toEqual([
      '0/0/efa',
      '0/1/interface',
      '1/1/efa-only',
      '2/1/efa-only',
      '3/1/efa-only',
    ]);
    // The kubelet advertises EFA devices only on the nodes launched with EFA interfaces.
    const advertised = Object.fromEntries(
      nodes.map((n) => [
        n.metadata.labels?.['node.kubernetes.io/instance-type'],
        n.status?.allocatable?.[EFA],
      ]),
    );
    expect(advertised['p4d.24xlarge']).toBe('4');
    expect(advertised['c5n.9xlarge']).toBe('1');
    const web = result.summary.nodes.filter((n) => n.efaInterfaces === undefined);
    expect(web).toHaveLength(1);
    expect(advertised[web[0].instanceType]).toBeUndefined();
    expect(formatSummary(result)).toContain('p4d.24xlarge  us-west-2a  on-demand');
    expect(formatSummary(result)).toMatch(/p4d\.24xlarge .* efa 4/);
  }, 300_000);
});
