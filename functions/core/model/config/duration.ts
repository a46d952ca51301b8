import type { DurationMs } from '../duration.js';

const UNIT_MS: Record<string, number> = {
  ns: 1e-6,
  us: 1e-3,
  µs: 1e-3,
  ms: 1,
  s: 1000,
  m: 60_000,
  h: 3_600_000,
};

const DURATION =
  /^(?:\d+(?:\.\d*)?|\.\d+)(?:ns|us|µs|ms|s|m|h)(?:(?:\d+(?:\.\d*)?|\.\d+)(?:ns|us|µs|ms|s|m|h))*$/;
const PART = /(\d+(?:\.\d*)?|\.\d+)(ns|us|µs|ms|s|m|h)/g;

/** A duration that is neither Go duration syntax, a number of seconds, nor `Never`. */
export class DurationError extends Error {
  constructor(readonly input: unknown) {
    super(
      `invalid duration ${JSON.stringify(input)}: expected a Go duration such as "30s", "720h" or "1h30m"` +
        ', a number of seconds, or "Never"',
    );
    this.name = 'DurationError';
  }
}

/**
 * Parses a Karpenter duration into milliseconds: Go duration syntax (`"720h"`, `"30s"`, `"1h30m"`,
 * `"1.5h"`, `"300ms"`), a bare number or numeric string meaning seconds (as v1beta1 manifests write
 * `expireAfter: 2592000`), or `"Never"` (returns `null`).
 */
export function durationToMs(input: string | number): DurationMs {
  if (typeof input === 'number') {
    if (!Number.isFinite(input) || input < 0) throw new DurationError(input);
    return Math.round(input * 1000);
  }
  if (typeof input !== 'string') throw new DurationError(input);
  const text = input.trim();
  if (text === 'Never') return null;
  if (/^\d+(?:\.\d+)?$/.test(text)) return Math.round(Number(text) * 1000);
  if (text === '0') return 0;
  if (!DURATION.test(text)) throw new DurationError(input);
  let total = 0;
  for (const match of text.matchAll(PART)) total += Number(match[1]) * UNIT_MS[match[2]];
  return Math.round(total);
}

/** True when `durationToMs` accepts the input. */
export function isDuration(input: unknown): boolean {
  if (typeof input !== 'string' && typeof input !== 'number') return false;
  try {
    durationToMs(input);
    return true;
  } catch {
    return false;
  }
}

/** Formats milliseconds as a compact Go-style duration (`1800000` -> `"30m"`, `null` -> `"Never"`). */
export function formatDuration(ms: DurationMs): string {
  if (ms === null) return 'Never';
  if (ms === 0) return '0s';
  let rest = ms;
  let out = '';
  for (const [unit, size] of [
    ['h', 3_600_000],
    ['m', 60_000],
    ['s', 1000],
  ] as const) {
    const n = Math.floor(rest / size);
    if (n > 0) out += `${n}${unit}`;
    rest -= n * size;
  }
  return rest > 0 ? `${out}${rest}ms` : out;
}
