import { describe, expect, it } from 'vitest';
import { ResourceRegistry } from '../../../../functions/simulator/kube/api/resource-registry.js';
import { groupList } from '../../../../functions/simulator/kube/http/discovery.js';
import {
  compareKubeVersions,
  discoveryOrder,
} from '../../../../functions/simulator/kube/http/discovery-order.js';

const crd = (group: string, plural: string, kind: string, versions: string[]) => ({
  spec: {
    group,
    names: { plural, singular: kind.toLowerCase(), kind, categories: ['karpenter'] },
    scope: 'Cluster' as const,
    versions: versions.map((name) => ({ name, served: true, storage: name === versions[0] })),
  },
});

describe('discovery order, as a real API server gives it', () => {
  it('lists built-in groups by their priority, then CRD groups by APIService name, whatever the creation order', () => {
    const registry = new ResourceRegistry();
    registry.registerCrd(crd('karpenter.sh', 'nodepools', 'NodePool', ['v1']));
    registry.registerCrd(crd('karpenter.k8s.aws', 'ec2nodeclasses', 'EC2NodeClass', ['v1']));
    registry.registerCrd(crd('joiner.sh', 'nodepools', 'NodePool', ['v1']));
    const names = (groupList(registry).groups as { name: string }[]).map((g) => g.name);
    expect(names.slice(0, 2)).toEqual(['apps', 'events.k8s.io']);
    // kubectl resolves `nodepools` to the first group serving it: joiner.sh, as on a real server.
    expect(names.slice(-3)).toEqual(['joiner.sh', 'karpenter.k8s.aws', 'karpenter.sh']);
    expect(names.indexOf('policy')).toBeLessThan(names.indexOf('rbac.authorization.k8s.io'));
    expect(names.indexOf('storage.k8s.io')).toBeLessThan(names.indexOf('coordination.k8s.io'));
  });

  it('orders a group by its first APIService name, and its versions GA, beta, alpha (highest first)', () => {
    const ordered = discoveryOrder([
      { group: 'b.example', versions: ['v1alpha1', 'v1'] },
      { group: 'a.example', versions: ['v2beta1'] },
      { group: 'apps', versions: ['v1'] },
    ]);
    // APIService names: v1.b.example < v2beta1.a.example (the version leads the name).
    expect(ordered.map((g) => g.group)).toEqual(['apps', 'b.example', 'a.example']);
    expect(ordered[1].versions).toEqual(['v1', 'v1alpha1']);
    expect(
      ['v1alpha1', 'v1beta1', 'v2', 'v1', 'v1beta2', 'v2alpha1', 'other'].sort(compareKubeVersions),
    ).toEqual(['v2', 'v1', 'v1beta2', 'v1beta1', 'v2alpha1', 'v1alpha1', 'other']);
  });
});
