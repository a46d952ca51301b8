import { describe, expect, it } from 'vitest';
import { evaluateConditions } from '../../../../functions/simulator/kube/admission/cel-conditions.js';

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
});
