import { describe, expect, it } from 'vitest';
import {
  formatBytes,
  formatCpu,
  parseBytes,
  parseCpuMillis,
  parseQuantity,
  parseResource,
  QuantityError,
} from '../../../../functions/core/model/quantity.js';

describe('parseQuantity', () => {
  it.each([
    ['1', 1],
    ['500m', 0.5],
    ['1.5', 1.5],
    ['1k', 1000],
    ['1M', 1e6],
    ['2G', 2e9],
    ['1Ki', 1024],
    ['128Mi', 128 * 2 ** 20],
    ['2Gi', 2 * 2 ** 30],
    ['1Ti', 2 ** 40],
    ['1e3', 1000],
    ['12E-1', 1.2],
    ['.5', 0.5],
    ['100u', 1e-4],
  ])('%s -> %d', (input, expected) => {
    expect(parseQuantity(input)).toBeCloseTo(expected, 9);
  });

  it.each(['', 'abc', '1Gb', '1.2.3', '--1', '1 Gi', 'Mi'])('rejects %j with a clear error', (input) => {
    expect(() => parseQuantity(input)).toThrow(QuantityError);
    expect(() => parseQuantity(input)).toThrow(/invalid quantity/);
  });
});

describe('canonical units', () => {
  it('cpu in millicores, rounded up', () => {
    expect(parseCpuMillis('100m')).toBe(100);
    expect(parseCpuMillis('1.5')).toBe(1500);
    expect(parseCpuMillis(2)).toBe(2000);
    expect(parseCpuMillis('0.0001')).toBe(1);
  });
  it('bytes as integers', () => {
    expect(parseBytes('1Gi')).toBe(1073741824);
    expect(parseBytes('1.5Ki')).toBe(1536);
    expect(parseResource('memory', '256Mi')).toBe(256 * 2 ** 20);
    expect(parseResource('cpu', '250m')).toBe(250);
    expect(parseResource('nvidia.com/gpu', '1')).toBe(1);
  });
  it('formats back', () => {
    expect(formatCpu(1500)).toBe('1500m');
    expect(formatCpu(2000)).toBe('2');
    expect(formatBytes(2 ** 30)).toBe('1Gi');
    expect(formatBytes(1000)).toBe('1000');
  });
});
