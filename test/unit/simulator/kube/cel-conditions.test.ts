import { describe, expect, it } from 'vitest';
import { BOUND_POD_DELETED } from '../../../../functions/core/install/match-conditions.js';
import { evaluateConditions, toCel } from '../../../../functions/simulator/kube/admission/cel-conditions.js';

const vars = (phase: string) => ({
  object: { status: { phase } },
  oldObject: null,
  request: { operation: 'UPDATE' },
});

describe('match conditions', () => {
  it('evaluates the same expression against each request (compiled once)', () => {
    const conditions = [{ name: 'running', expression: "object.status.phase == 'Running'" }];
    expect(evaluateConditions(conditions, vars('Running'))).toEqual({ matched: true });
    expect(evaluateConditions(conditions, vars('Pending'))).toEqual({ matched: false, name: 'running' });
    expect(evaluateConditions(conditions, vars('Running'))).toEqual({ matched: true });
  });

  it("evaluates joiner's pod-deleted conditions as a real API server: evicted and already-terminating pods skipped", () => {
    const deleted = (metadata: object, conditions: object[] = []) => ({
      object: null,
      oldObject: { metadata: { name: 'p', ...metadata }, spec: { nodeName: 'n1' }, status: { conditions } },
      request: { operation: 'DELETE' },
    });
    const terminating = { deletionTimestamp: '2026-01-01T00:00:00Z' };
    const evicted = { type: 'DisruptionTarget', status: 'True', reason: 'EvictionByEvictionAPI' };
    const statefulSet = { ownerReferences: [{ kind: 'StatefulSet', name: 'db' }] };
    expect(evaluateConditions(BOUND_POD_DELETED, deleted({}))).toEqual({ matched: true });
    expect(evaluateConditions(BOUND_POD_DELETED, deleted({}, [evicted]))).toEqual({
      matched: false,
      name: 'not-evicted',
    });
    expect(evaluateConditions(BOUND_POD_DELETED, deleted(terminating))).toEqual({
      matched: false,
      name: 'first-deletion',
    });
    expect(evaluateConditions(BOUND_POD_DELETED, deleted({ ...terminating, ...statefulSet }))).toEqual({
      matched: true,
    });
  });

  it('names the condition whose expression does not parse, every time it is evaluated', () => {
    const conditions = [{ name: 'broken', expression: 'object.status.phase ==' }];
    for (let i = 0; i < 2; i++) {
      const result = evaluateConditions(conditions, vars('Running'));
      expect(result).toHaveProperty('error');
      expect((result as { error: string }).error).toMatch(/^matchCondition "broken"/);
    }
  });

  it('reports an expression that is not a bool', () => {
    const result = evaluateConditions(
      [{ name: 'phase', expression: 'object.status.phase' }],
      vars('Running'),
    );
    expect(result).toEqual({ error: 'matchCondition "phase" must evaluate to bool, got string' });
  });

  it('sees an object bound twice (object and request.object) the same under both names', () => {
    const pod = { metadata: { name: 'p', labels: { app: 'a' } }, spec: { replicas: 3 } };
    const old = { metadata: pod.metadata, spec: { replicas: 2 } };
    const bindings = {
      object: pod,
      oldObject: old,
      request: { operation: 'UPDATE', object: pod, oldObject: old },
    };
    const conditions = [
      { name: 'same', expression: 'object == request.object && oldObject == request.oldObject' },
      { name: 'grew', expression: 'object.spec.replicas > oldObject.spec.replicas' },
      { name: 'labels', expression: "oldObject.metadata.labels.app == 'a'" },
    ];
    expect(evaluateConditions(conditions, bindings)).toEqual({ matched: true });
    const shrunk = { ...bindings, object: { ...pod, spec: { replicas: 1 } } };
    expect(evaluateConditions(conditions, shrunk)).toEqual({ matched: false, name: 'same' });
  });

  it('converts a value shared by two bindings once, and equal but distinct values apart', () => {
    const shared = { a: 1 };
    const converted = new Map<object, unknown>();
    const one = toCel({ x: shared, y: shared, z: { a: 1 } }, converted) as Map<string, unknown>;
    expect(one.get('x')).toBe(one.get('y'));
    expect(one.get('z')).not.toBe(one.get('x'));
    expect([...(one.get('z') as Map<string, unknown>)]).toEqual([['a', 1n]]);
  });

  it('converts only the parts of an object a condition reads, and reads them as the whole would', () => {
    let specReads = 0;
    const pod = {
      metadata: { name: 'p', labels: { app: 'a' } },
      spec: {
        nodeName: 'n1',
        get containers() {
          specReads++;
          return [{ name: 'c' }];
        },
      },
      status: { conditions: [{ type: 'Ready', status: 'True' }], restarts: 2 },
    };
    const conditions = [
      { name: 'ready', expression: "object.status.conditions.exists(c, c.type == 'Ready')" },
      { name: 'int', expression: 'object.status.restarts == 2 && size(object.metadata.labels) == 1' },
    ];
    const request = { object: pod, oldObject: null, request: { operation: 'UPDATE' } };
    expect(evaluateConditions(conditions, request)).toEqual({ matched: true });
    expect(specReads).toBe(0);
    const whole = [
      { name: 'spec', expression: "object.spec.nodeName == 'n1' && object.spec.containers[0].name == 'c'" },
      { name: 'keys', expression: "object.all(k, k in ['metadata', 'spec', 'status'])" },
      { name: 'equal', expression: 'object == request.object && object.metadata != {}' },
    ];
    expect(evaluateConditions(whole, { ...request, request: { object: pod } })).toEqual({ matched: true });
    expect(specReads).toBe(1);
  });
});
