import { describe, expect, it } from 'vitest';
import {
  DurationError,
  durationToMs,
  formatDuration,
} from '../../../../../functions/core/model/config/duration.js';

describe('durationToMs', () => {
  it.each([
    ['720h', 720 * 3_600_000],
    ['30s', 30_000],
    ['1h30m', 5_400_000],
    ['1.5h', 5_400_000],
    ['300ms', 300],
    ['0s', 0],
    ['165h', 165 * 3_600_000],
    ['5m30s', 330_000],
  ])('parses Go duration %s', (text, ms) => {
    expect(durationToMs(text)).toBe(ms);
  });

  it('reads bare numbers and numeric strings as seconds (v1beta1 expireAfter: 2592000)', () => {
    expect(durationToMs(2592000)).toBe(2_592_000_000);
    expect(durationToMs('1800')).toBe(1_800_000);
  });

  it('returns null for Never', () => {
    expect(durationToMs('Never')).toBeNull();
  });

  it.each(['', 'abc', '1d', '10 s', 'never', '-5s', 'h'])('rejects %j', (text) => {
    expect(() => durationToMs(text)).toThrow(DurationError);
  });

  it('rejects negative numbers with a message naming the input', () => {
    expect(() => durationToMs(-1)).toThrow(/invalid duration -1/);
  });

  it('formats back', () => {
    expect(formatDuration(5_400_000)).toBe('1h30m');
    expect(formatDuration(null)).toBe('Never');
    expect(formatDuration(0)).toBe('0s');
  });
});
