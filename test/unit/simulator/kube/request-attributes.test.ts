import { describe, expect, it } from 'vitest';
import { requestAttributes } from '../../../../functions/simulator/kube/auth/request-attributes.js';

const at = (method: string, path: string) => requestAttributes(method, new URL(path, 'http://127.0.0.1'));

describe('request attributes', () => {
  it('reads the verb from the method, the name and the watch parameter', () => {
    expect(at('GET', '/api/v1/nodes')).toMatchObject({ verb: 'list', resource: 'nodes', name: '' });
    expect(at('GET', '/api/v1/nodes?watch=true')).toMatchObject({ verb: 'watch' });
    expect(at('GET', '/api/v1/nodes?watch=1')).toMatchObject({ verb: 'watch' });
    expect(at('GET', '/api/v1/nodes/n1')).toMatchObject({ verb: 'get', name: 'n1' });
    expect(at('POST', '/api/v1/namespaces/default/events')).toMatchObject({
      verb: 'create',
      resource: 'events',
      namespace: 'default',
    });
    expect(at('PUT', '/api/v1/nodes/n1')).toMatchObject({ verb: 'update' });
    expect(at('PATCH', '/api/v1/nodes/n1')).toMatchObject({ verb: 'patch' });
    expect(at('DELETE', '/api/v1/nodes/n1')).toMatchObject({ verb: 'delete' });
    expect(at('DELETE', '/api/v1/namespaces/a/pods')).toMatchObject({ verb: 'deletecollection' });
  });

  it('reads group, namespace, name and subresource', () => {
    expect(at('POST', '/api/v1/namespaces/web/pods/p1/eviction')).toEqual({
      kind: 'resource',
      verb: 'create',
      apiGroup: '',
      resource: 'pods',
      subresource: 'eviction',
      namespace: 'web',
      name: 'p1',
    });
    expect(at('PATCH', '/apis/karpenter.sh/v1/nodepools/default/status')).toEqual({
      kind: 'resource',
      verb: 'patch',
      apiGroup: 'karpenter.sh',
      resource: 'nodepools',
      subresource: 'status',
      namespace: '',
      name: 'default',
    });
    expect(at('GET', '/apis/apps/v1/daemonsets')).toMatchObject({ apiGroup: 'apps', resource: 'daemonsets' });
  });

  it('reads a namespace request as one on the namespace itself, its status included', () => {
    expect(at('GET', '/api/v1/namespaces/team')).toMatchObject({
      resource: 'namespaces',
      name: 'team',
      namespace: 'team',
    });
    expect(at('PUT', '/api/v1/namespaces/team/status')).toMatchObject({
      resource: 'namespaces',
      name: 'team',
      subresource: 'status',
    });
    expect(at('GET', '/api/v1/namespaces')).toMatchObject({
      verb: 'list',
      resource: 'namespaces',
      namespace: '',
    });
  });

  it('reads discovery and health paths as non-resource requests', () => {
    expect(at('GET', '/apis/karpenter.sh/v1')).toEqual({
      kind: 'nonResource',
      verb: 'get',
      path: '/apis/karpenter.sh/v1',
    });
    expect(at('GET', '/api')).toMatchObject({ kind: 'nonResource', path: '/api' });
    expect(at('GET', '/version')).toMatchObject({ kind: 'nonResource', verb: 'get' });
    expect(at('POST', '/healthz')).toMatchObject({ kind: 'nonResource', verb: 'post' });
  });
});
