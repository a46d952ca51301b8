/**
 * Deep copies of Kubernetes objects. The simulated API server copies an object on nearly every
 * read and write (a caller must never hold a reference into the store), and `structuredClone`
 * serializes and deserializes its argument, several times slower than copying plain objects and
 * arrays directly. {@link deepCopy} copies JSON-like data (plain objects, arrays, primitives) by
 * walking it, and hands anything else to `structuredClone`, so the result is the same.
 */

/** Thrown inside the walk when the value is not plain data; the copy then falls back. */
const NOT_PLAIN: unique symbol = Symbol('not plain data');

/** Deeper than this, a value is taken for a cycle (which `structuredClone` handles). */
const MAX_DEPTH = 200;

/**
 * Copies `value`, sharing with `previous` every value held by the same reference at the same place
 * (field or list index); with `previous` undefined, a plain deep copy.
 */
function copy(value: unknown, previous: unknown, depth: number): unknown {
  if (value === previous) return value;
  if (value === null || typeof value !== 'object') {
    if (typeof value === 'function' || typeof value === 'symbol') throw NOT_PLAIN;
    return value;
  }
  if (depth > MAX_DEPTH) throw NOT_PLAIN;
  if (Array.isArray(value)) {
    const before = Array.isArray(previous) ? previous : undefined;
    const n = value.length;
    const out = new Array(n);
    for (let i = 0; i < n; i++) {
      if (!(i in value)) throw NOT_PLAIN;
      out[i] = copy(value[i], before?.[i], depth + 1);
    }
    return out;
  }
  const proto = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) throw NOT_PLAIN;
  const before =
    previous !== null && typeof previous === 'object' && !Array.isArray(previous)
      ? (previous as Record<string, unknown>)
      : undefined;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    if (key === '__proto__') throw NOT_PLAIN;
    out[key] = copy((value as Record<string, unknown>)[key], before?.[key], depth + 1);
  }
  return out;
}

/**
 * A deep copy of the object `value` whose top level is always a new object and which shares with
 * `previous` every value `value` holds by the same reference at the same place (field or list
 * index). For the store: `previous` is the stored version of the object, which is never changed,
 * so a part of it an update carries over unchanged (a status update's spec, labels and owner
 * references) is kept by reference instead of being copied again. Anything that is not plain
 * data makes it a `structuredClone` (which shares nothing), as {@link deepCopy}.
 */
export function deepCopySharing<T extends object>(value: T, previous: object | undefined): T {
  try {
    if (value === previous) return { ...value };
    return copy(value, previous, 0) as T;
  } catch (err) {
    if (err === NOT_PLAIN) return structuredClone(value);
    throw err;
  }
}

/**
 * A deep copy of `value`, equal to `structuredClone(value)` for the JSON-like data Kubernetes
 * objects are: plain objects (copied as plain objects, own enumerable keys in order, `undefined`
 * values kept), arrays and primitives. Anything else anywhere in it (a Date, a Map, a class
 * instance, a sparse array, a cycle, a function) makes it a `structuredClone` of the whole value,
 * errors included. Unlike `structuredClone`, one object reachable twice is copied twice.
 */
export function deepCopy<T>(value: T): T {
  try {
    return copy(value, undefined, 0) as T;
  } catch (err) {
    if (err === NOT_PLAIN) return structuredClone(value);
    throw err;
  }
}
