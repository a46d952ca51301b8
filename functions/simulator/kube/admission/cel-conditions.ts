/**
 * `matchConditions` of admission webhooks, evaluated as real CEL (the `@bufbuild/cel` evaluator)
 * with the variables the API server binds: `object`, `oldObject`, `request` and `namespaceObject`.
 */
import { celEnv, celError, isCelError, parse, plan } from '@bufbuild/cel';

/** Converts JSON into CEL input: objects become maps, integral numbers CEL ints. */
export function toCel(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(toCel);
  if (value !== null && typeof value === 'object') {
    return new Map(Object.entries(value as Record<string, unknown>).map(([k, v]) => [k, toCel(v)]));
  }
  if (typeof value === 'number' && Number.isInteger(value)) return BigInt(value);
  return value ?? null;
}

/** The variables a match condition sees. */
export interface ConditionVariables {
  readonly object: unknown;
  readonly oldObject: unknown;
  readonly request: unknown;
  readonly namespaceObject?: unknown;
}

/** A named match condition (`{name, expression}`). */
export interface MatchCondition {
  readonly name: string;
  readonly expression: string;
}

/** The outcome: all true, one false (named), or an evaluation error (named). */
export type ConditionResult = { matched: true } | { matched: false; name: string } | { error: string };

type Program = (bindings: Parameters<ReturnType<typeof plan>>[0]) => unknown;

/**
 * Compiled expressions by source text: an API server compiles a webhook's match conditions once
 * when the configuration is stored, not on every request. A parse error is kept as a program that
 * answers it, as evaluating the text would.
 */
const programs = new Map<string, Program>();
const MAX_PROGRAMS = 1_000;

function compiled(expression: string): Program {
  let program = programs.get(expression);
  if (!program) {
    try {
      const evaluate = plan(celEnv(), parse(expression));
      program = (bindings) => {
        try {
          return evaluate(bindings);
        } catch (err) {
          return celError(err);
        }
      };
    } catch (err) {
      const error = celError(err);
      program = () => error;
    }
    if (programs.size >= MAX_PROGRAMS) programs.clear();
    programs.set(expression, program);
  }
  return program;
}

/** Evaluates the conditions in order; the first false or failing one decides. */
export function evaluateConditions(
  conditions: readonly MatchCondition[],
  vars: ConditionVariables,
): ConditionResult {
  const bindings = {
    object: toCel(vars.object),
    oldObject: toCel(vars.oldObject),
    request: toCel(vars.request),
    namespaceObject: toCel(vars.namespaceObject),
  };
  for (const c of conditions) {
    let result: unknown;
    try {
      result = compiled(c.expression)(bindings as unknown as Parameters<Program>[0]);
    } catch (err) {
      return {
        error: `matchCondition ${JSON.stringify(c.name)}: compilation error: ${(err as Error).message}`,
      };
    }
    if (isCelError(result))
      return {
        error: `matchCondition ${JSON.stringify(c.name)}: ${String((result as Error).message ?? result)}`,
      };
    if (typeof result !== 'boolean')
      return {
        error: `matchCondition ${JSON.stringify(c.name)} must evaluate to bool, got ${typeof result}`,
      };
    if (!result) return { matched: false, name: c.name };
  }
  return { matched: true };
}
