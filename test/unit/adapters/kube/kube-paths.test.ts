import { describe, expect, it } from 'vitest';
import { groupVersionPath, resourcePath } from '../../../../functions/adapters/kube/kube-paths.js';

describe('resource paths', () => {
  it('addresses the core group under /api and the others under /apis', () => {
    expect(groupVersionPath('v1')).toBe('/api/v1');
    expect(groupVersionPath('rbac.authorization.k8s.io/v1')).toBe('/apis/rbac.authorization.k8s.io/v1');
    expect(resourcePath({ apiVersion: 'apps/v1', plural: 'daemonsets' })).toBe('/apis/apps/v1/daemonsets');
    expect(resourcePath({ apiVersion: 'v1', plural: 'nodes' }, { name: 'n1' })).toBe('/api/v1/nodes/n1');
  });

  it('places the namespace before the resource and the subresource after the name, encoded', () => {
    expect(
      resourcePath(
        { apiVersion: 'v1', plural: 'pods' },
        { namespace: 'default', name: 'web 1', subresource: 'eviction' },
      ),
    ).toBe('/api/v1/namespaces/default/pods/web%201/eviction');
  });

  it('rejects an apiVersion that is neither v1 nor group/version', () => {
    expect(() => groupVersionPath('a/b/c')).toThrow('apiVersion "a/b/c" is neither "v1" nor "group/version"');
    expect(() => resourcePath({ apiVersion: '', plural: 'x' })).toThrow(/apiVersion "" is neither/);
  });
});
