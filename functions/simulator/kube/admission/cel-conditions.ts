/**
 * `matchConditions` of admission webhooks, evaluated as real CEL (the `@bufbuild/cel` evaluator)
 * with the variables the API server binds: `object`, `oldObject`, `request` and `namespaceObject`.
 */
import { celEnv, celError, isCelError, parse, plan } from '@bufbuild/cel';

/**
 * Converts JSON into CEL input: objects become maps, integral numbers CEL ints. `converted` keeps
 * the conversions of one set of variables by object, so an object bound twice (a request's
 * `object` is also its `request.object`) is converted once; CEL only reads them. An object's map
 * converts its own fields only when CEL first reads it (see {@link JsonMap}): a condition that
 * reads `object.status.conditions` does not pay for converting the whole object.
 */
export function toCel(value: unknown, converted = new Map<object, unknown>()): unknown {
  if (value === null || typeof value !== 'object') return scalarToCel(value);
  const known = converted.get(value);
  if (known !== undefined) return known;
  const out = Array.isArray(value)
    ? value.map((v) => toCel(v, converted))
    : new JsonMap(value as Record<string, unknown>, converted);
  converted.set(value, out);
  return out;
}

/**
 * A JSON object as a CEL map (a `Map` of its fields, each converted by {@link toCel}), filled on
 * first use: every way of reading a `Map` fills it first, so it reads exactly as the map of the
 * object's converted fields would. The object must not change while the map is in use (CEL reads
 * a request's objects while the request is admitted, and nothing writes them meanwhile).
 */
class JsonMap extends Map<string, unknown> {
  // Private fields (not properties), so the map compares equal to a plain Map of its entries.
  #source?: Record<string, unknown>;
  readonly #converted: Map<object, unknown>;

  constructor(source: Record<string, unknown>, converted: Map<object, unknown>) {
    super();
    this.#source = source;
    this.#converted = converted;
  }

  #fill(): void {
    const source = this.#source;
    if (source === undefined) return;
    this.#source = undefined;
    for (const key of Object.keys(source)) super.set(key, toCel(source[key], this.#converted));
  }

  override get size(): number {
    this.#fill();
    return super.size;
  }

  override get(key: string): unknown {
    this.#fill();
    return super.get(key);
  }

  override has(key: string): boolean {
    this.#fill();
    return super.has(key);
  }

  override set(key: string, value: unknown): this {
    this.#fill();
    return super.set(key, value);
  }

  override delete(key: string): boolean {
    this.#fill();
    return super.delete(key);
  }

  override clear(): void {
    this.#source = undefined;
    super.clear();
  }

  override keys(): MapIterator<string> {
    this.#fill();
    return super.keys();
  }

  override values(): MapIterator<unknown> {
    this.#fill();
    return super.values();
  }

  override entries(): MapIterator<[string, unknown]> {
    this.#fill();
    return super.entries();
  }

  override forEach(
    callback: (value: unknown, key: string, map: Map<string, unknown>) => void,
    thisArg?: unknown,
  ): void {
    this.#fill();
    super.forEach(callback, thisArg);
  }

  override [Symbol.iterator](): MapIterator<[string, unknown]> {
    this.#fill();
    return super[Symbol.iterator]();
  }
}

function scalarToCel(value: unknown): unknown {
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

/** The variables of one request converted to CEL once, for all the webhooks it is checked against. */
export class CelBindings {
  private converted?: Record<string, unknown>;

  constructor(private readonly vars: ConditionVariables) {}

  /** The CEL values (converted on first use). */
  get values(): Record<string, unknown> {
    if (!this.converted) {
      const converted = new Map<object, unknown>();
      this.converted = {
        object: toCel(this.vars.object, converted),
        oldObject: toCel(this.vars.oldObject, converted),
        request: toCel(this.vars.request, converted),
        namespaceObject: toCel(this.vars.namespaceObject, converted),
      };
    }
    return this.converted;
  }
}

/**
 * Evaluates the conditions in order; the first false or failing one decides. `vars` may be the
 * {@link CelBindings} of a request shared by its webhooks (converted once).
 */
export function evaluateConditions(
  conditions: readonly MatchCondition[],
  vars: ConditionVariables | CelBindings,
): ConditionResult {
  if (conditions.length === 0) return { matched: true };
  const bindings = (vars instanceof CelBindings ? vars : new CelBindings(vars)).values;
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
