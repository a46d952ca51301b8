/**
 * Kubernetes resource quantities (https://kubernetes.io/docs/reference/kubernetes-api/common-definitions/quantity/):
 * `<number><suffix>` with binary suffixes Ki Mi Gi Ti Pi Ei, decimal suffixes n u m "" k M G T P E,
 * or a decimal exponent (`1e3`, `12E-1`).
 */

const BINARY: Record<string, number> = {
  Ki: 2 ** 10,
  Mi: 2 ** 20,
  Gi: 2 ** 30,
  Ti: 2 ** 40,
  Pi: 2 ** 50,
  Ei: 2 ** 60,
};
const DECIMAL: Record<string, number> = {
  n: 1e-9,
  u: 1e-6,
  m: 1e-3,
  '': 1,
  k: 1e3,
  M: 1e6,
  G: 1e9,
  T: 1e12,
  P: 1e15,
  E: 1e18,
};

const QUANTITY = /^([+-]?(?:\d+\.?\d*|\.\d+))(?:(Ki|Mi|Gi|Ti|Pi|Ei|n|u|m|k|M|G|T|P|E)|[eE]([+-]?\d+))?$/;

/** A quantity that is not valid Kubernetes syntax. */
export class QuantityError extends Error {
  constructor(readonly input: unknown) {
    super(
      `invalid quantity ${JSON.stringify(input)}: expected a number with an optional suffix ` +
        '(m, k, M, G, T, Ki, Mi, Gi, Ti, or an exponent such as 1e3), e.g. "500m", "2Gi", "1.5"',
    );
    this.name = 'QuantityError';
  }
}

/** Parses a quantity into its plain numeric value (e.g. `"500m"` -> 0.5, `"1Gi"` -> 1073741824). */
export function parseQuantity(input: string | number): number {
  if (typeof input === 'number') {
    if (!Number.isFinite(input)) throw new QuantityError(input);
    return input;
  }
  if (typeof input !== 'string') throw new QuantityError(input);
  const match = QUANTITY.exec(input.trim());
  if (!match || input.trim() === '') throw new QuantityError(input);
  const [, num, suffix, exponent] = match;
  const value = Number(num);
  if (exponent !== undefined) return value * 10 ** Number(exponent);
  const factor = suffix === undefined ? 1 : (BINARY[suffix] ?? DECIMAL[suffix]);
  return value * factor;
}

/** CPU quantity in integer millicores, rounded up as the kubelet does (`"1.5"` -> 1500, `"100m"` -> 100). */
export function parseCpuMillis(input: string | number): number {
  return Math.ceil(Math.round(parseQuantity(input) * 1e6) / 1e3);
}

/** Byte quantity as an integer number of bytes, rounded up (`"1Ki"` -> 1024, `"1k"` -> 1000). */
export function parseBytes(input: string | number): number {
  return Math.ceil(parseQuantity(input) - 1e-9);
}

/**
 * Parses a resource amount into joiner's canonical units for that resource name:
 * millicores for `cpu`, integer units for everything else (bytes for memory / storage).
 */
export function parseResource(name: string, input: string | number): number {
  return name === 'cpu' ? parseCpuMillis(input) : parseBytes(input);
}

/** Formats millicores like Kubernetes prints them (`1500` -> `"1500m"`, `2000` -> `"2"`). */
export function formatCpu(millis: number): string {
  return millis % 1000 === 0 ? String(millis / 1000) : `${millis}m`;
}

/** Formats bytes with the largest exact binary suffix (`1073741824` -> `"1Gi"`). */
export function formatBytes(bytes: number): string {
  for (const suffix of ['Ei', 'Pi', 'Ti', 'Gi', 'Mi', 'Ki'] as const) {
    const f = BINARY[suffix];
    if (bytes !== 0 && bytes % f === 0) return `${bytes / f}${suffix}`;
  }
  return String(bytes);
}
