/**
 * The API server's copies of objects: equal to `structuredClone` for Kubernetes objects (JSON-like
 * data, `undefined` values included), sharing nothing with the original, and falling back to
 * `structuredClone` for anything that is not plain data.
 */
import { describe, expect, it } from 'vitest';
import { deepCopy } from '../../../../functions/simulator/kube/api/deep-copy.js';

const pod = () => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: {
    name: 'web-1',
    namespace: 'default',
    labels: { app: 'web' },
    resourceVersion: undefined,
    ownerReferences: [{ kind: 'ReplicaSet', name: 'web', uid: 'u1', controller: true }],
  },
  spec: { containers: [{ name: 'c', resources: { requests: { cpu: '100m' } } }], priority: 0 },
  status: { phase: 'Running', conditions: [{ type: 'Ready', status: 'True', lastProbeTime: null }] },
});

describe('deepCopy', () => {
  it('copies JSON-like objects as structuredClone does, keys in order and undefined values kept', () => {
    const original = pod();
    const copy = deepCopy(original);
    expect(copy).toStrictEqual(structuredClone(original));
    expect(Object.keys(copy.metadata)).toEqual(Object.keys(original.metadata));
    expect('resourceVersion' in copy.metadata).toBe(true);
  });

  it('shares no object or array with the original', () => {
    const original = pod();
    const copy = deepCopy(original);
    copy.metadata.labels.app = 'changed';
    copy.spec.containers[0].resources.requests.cpu = '1';
    copy.status.conditions.push({ type: 'PodScheduled', status: 'True', lastProbeTime: null });
    expect(original).toStrictEqual(pod());
  });

  it('falls back to structuredClone for values that are not plain data', () => {
    const date = new Date(0);
    const withDate = { metadata: { name: 'a' }, at: date, map: new Map([['k', 1]]) };
    const copy = deepCopy(withDate);
    expect(copy.at).toBeInstanceOf(Date);
    expect(copy.at).not.toBe(date);
    expect(copy.map.get('k')).toBe(1);
    const cyclic: Record<string, unknown> = { name: 'c' };
    cyclic.self = cyclic;
    const cycleCopy = deepCopy(cyclic);
    expect(cycleCopy.self).toBe(cycleCopy);
    const sparse = [1, 2, 3];
    delete sparse[1];
    expect(deepCopy(sparse)).toStrictEqual(structuredClone(sparse));
    const proto = JSON.parse('{"__proto__": {"x": 1}}');
    expect(Object.getPrototypeOf(deepCopy(proto))).toBe(Object.prototype);
    expect(deepCopy(proto)).toStrictEqual(structuredClone(proto));
  });

  it('refuses what structuredClone refuses', () => {
    expect(() => deepCopy({ f: () => 1 })).toThrow();
    expect(() => deepCopy({ s: Symbol('x') })).toThrow();
  });

  it('copies primitives and null as themselves', () => {
    for (const v of [null, undefined, 0, 'x', true, 10n]) expect(deepCopy(v)).toBe(v);
  });
});
