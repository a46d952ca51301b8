import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  formatBytes,
  formatCpu,
  parseBytes,
  parseCpuMillis,
  parseQuantity,
  QuantityError,
} from '../../../../functions/core/model/quantity.js';

const BINARY = { Ki: 2 ** 10, Mi: 2 ** 20, Gi: 2 ** 30, Ti: 2 ** 40 } as const;
const DECIMAL = { m: 1e-3, '': 1, k: 1e3, M: 1e6, G: 1e9 } as const;

describe('the quantity parser (property)', () => {
  it('on any input either returns a finite number or throws a QuantityError naming the input', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string({ maxLength: 30 }), fc.double(), fc.anything()), (input) => {
        try {
          expect(Number.isFinite(parseQuantity(input as string))).toBe(true);
        } catch (error) {
          expect(error).toBeInstanceOf(QuantityError);
          expect((error as Error).message).toContain('invalid quantity');
        }
      }),
      { numRuns: 1_000, seed: 19 },
    );
  });

  it('reads an integer with any binary or decimal suffix as integer x factor', () => {
    const suffixes = { ...BINARY, ...DECIMAL } as Record<string, number>;
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 1_000_000 }),
        fc.constantFrom(...Object.keys(suffixes)),
        (n, s) => {
          expect(parseQuantity(`${n}${s}`)).toBeCloseTo(n * (suffixes[s] ?? 1), 6);
        },
      ),
      { numRuns: 500, seed: 19 },
    );
  });

  it('reads exponents like the suffix they equal', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 100_000 }), fc.constantFrom(3, 6, 9), (n, e) => {
        const suffix = { 3: 'k', 6: 'M', 9: 'G' }[e];
        expect(parseQuantity(`${n}e${e}`)).toBe(parseQuantity(`${n}${suffix}`));
      }),
      { numRuns: 300, seed: 19 },
    );
  });

  it('round-trips CPU millicores and bytes through their Kubernetes formats', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 10_000_000 }), (millis) => {
        expect(parseCpuMillis(formatCpu(millis))).toBe(millis);
      }),
      { numRuns: 500, seed: 19 },
    );
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 2 ** 40 }), (bytes) => {
        expect(parseBytes(formatBytes(bytes))).toBe(bytes);
      }),
      { numRuns: 500, seed: 19 },
    );
  });
});
