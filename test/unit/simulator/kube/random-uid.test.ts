/** The API server's uids come from the seeded source, so runs repeat: the same draws, in the same order. */
import { describe, expect, it } from 'vitest';
import { SeededRandom } from '../../../../functions/simulator/clock.js';
import { randomUid } from '../../../../functions/simulator/kube/api/object-defaults.js';

/** The uid as it was first written (one array per group of hex digits). */
function reference(random: SeededRandom): string {
  const hex = (n: number): string => Array.from({ length: n }, () => random.int(0, 15).toString(16)).join('');
  return `${hex(8)}-${hex(4)}-4${hex(3)}-${(8 + random.int(0, 3)).toString(16)}${hex(3)}-${hex(12)}`;
}

describe('randomUid', () => {
  it('draws the same uids from the same seed as before', () => {
    const a = new SeededRandom(42);
    const b = new SeededRandom(42);
    for (let i = 0; i < 200; i++) expect(randomUid(a)).toBe(reference(b));
    expect(randomUid(new SeededRandom(1))).toMatch(
      /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
    );
  });
});
