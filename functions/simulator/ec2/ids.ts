import type { SeededRandom } from '../clock.js';

/** A new EC2-style id (`i-`, `eni-`, `fleet-`, ...) with 17 hex digits from the seeded random source. */
export function newId(random: SeededRandom, prefix: string): string {
  let hex = '0';
  for (let i = 0; i < 16; i++) hex += random.int(0, 15).toString(16);
  return `${prefix}-${hex}`;
}
