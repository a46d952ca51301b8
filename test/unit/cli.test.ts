import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';

describe('joiner CLI', () => {
  it('prints help listing its commands', () => {
    const out = execFileSync('node', ['bin/joiner.js', '--help'], { encoding: 'utf8' });
    for (const cmd of ['validate', 'plan', 'sim', 'simulate']) expect(out).toContain(cmd);
  });
});
