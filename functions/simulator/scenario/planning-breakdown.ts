/**
 * Where the virtual time of a planning window went, from the spans the invocation's compute ledger
 * recorded (runner/compute-ledger.ts): `reads` (the modeled latency of calls that read: pods, nodes,
 * claims, offerings), `compute` (joiner's modeled compute: scheduling, parsing what it read),
 * `writes` (calls that change state: the lease, claims, launch templates) and `other` (waiting
 * on nothing modeled as work: another run's lease, a retry's back-off). Calls made in parallel
 * overlap; an instant counts once, as compute before writes before reads.
 */
import type { Span, SpanKind } from '../runner/compute-ledger.js';

/** Virtual ms of a window per part. */
export interface PlanningParts {
  readonly readsMs: number;
  readonly computeMs: number;
  readonly writesMs: number;
  readonly otherMs: number;
}

const PRECEDENCE: readonly SpanKind[] = ['compute', 'write', 'read'];

/** Splits the window [from, to] by the spans that overlap it. */
export function planningParts(spans: readonly Span[], from: number, to: number): PlanningParts {
  const parts: Record<SpanKind | 'other', number> = { compute: 0, write: 0, read: 0, other: 0 };
  if (!(to > from)) return toParts(parts);
  const inside = spans
    .map((s) => ({ kind: s.kind, from: Math.max(s.from, from), to: Math.min(s.to, to) }))
    .filter((s) => s.to > s.from);
  const points = [...new Set([from, to, ...inside.flatMap((s) => [s.from, s.to])])].sort((a, b) => a - b);
  for (let i = 0; i + 1 < points.length; i++) {
    const [a, b] = [points[i], points[i + 1]];
    const active = new Set(inside.filter((s) => s.from <= a && s.to >= b).map((s) => s.kind));
    const kind = PRECEDENCE.find((k) => active.has(k)) ?? 'other';
    parts[kind] += b - a;
  }
  return toParts(parts);
}

function toParts(parts: Record<SpanKind | 'other', number>): PlanningParts {
  return { readsMs: parts.read, computeMs: parts.compute, writesMs: parts.write, otherMs: parts.other };
}
