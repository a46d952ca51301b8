import { describe, expect, it } from 'vitest';
import { Progress } from '../../../functions/simulator/progress.js';

const sink = (isTTY: boolean) => {
  const out: string[] = [];
  return { out, stream: { isTTY, write: (t: string) => out.push(t) } };
};

describe('Progress', () => {
  it('rewrites one line in place on a terminal and ends it with a newline', () => {
    const { out, stream } = sink(true);
    const progress = new Progress(stream);
    progress.update('10 pods');
    progress.update('10 pods');
    progress.update('20 pods');
    progress.done();
    expect(out).toEqual(['\r\x1b[K10 pods', '\r\x1b[K20 pods', '\n']);
  });

  it('writes whole lines elsewhere, at most one per interval and only when the text changed', () => {
    const { out, stream } = sink(false);
    let now = 0;
    const progress = new Progress(stream, { intervalMs: 1000, now: () => now });
    progress.update('a');
    now = 500;
    progress.update('b');
    now = 1500;
    progress.update('c');
    progress.update('c');
    now = 3000;
    progress.update('c');
    progress.done();
    expect(out).toEqual(['a\n', 'c\n']);
    expect(out.join('')).not.toContain('\r');
  });
});
