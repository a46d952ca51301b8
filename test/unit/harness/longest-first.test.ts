import { describe, expect, it } from 'vitest';
import type { TestSpecification, Vitest } from 'vitest/node';
import { LongestFirst } from '../../helpers/longest-first.js';

/** A vitest context with a cache of earlier durations (ms) and file sizes (bytes), by `project:path`. */
function sequencer(durations: Record<string, number>, sizes: Record<string, number> = {}): LongestFirst {
  const ctx = {
    config: { root: '/repo' },
    cache: {
      getFileTestResults: (key: string) =>
        key in durations ? { duration: durations[key], failed: false } : undefined,
      getFileStats: (key: string) => (key in sizes ? { size: sizes[key] } : undefined),
    },
  };
  return new LongestFirst(ctx as unknown as Vitest);
}

const spec = (project: string, path: string) =>
  ({ project: { name: project }, moduleId: `/repo/${path}` }) as unknown as TestSpecification;

const order = async (s: LongestFirst, specs: TestSpecification[]) =>
  (await s.sort(specs)).map((f) => `${f.project.name}:${f.moduleId.slice('/repo/'.length)}`);

describe('LongestFirst', () => {
  it('runs the projects in their order, each longest first by the last run', async () => {
    const s = sequencer({
      'shared:test/unit/a.test.ts': 9_000,
      'shared:test/unit/b.test.ts': 100,
      'clouds:test/integration/c.test.ts': 2_000,
      'scenarios:test/e2e/d.test.ts': 1_000,
      'scenarios:test/e2e/e.test.ts': 50_000,
    });
    expect(
      await order(s, [
        spec('shared', 'test/unit/b.test.ts'),
        spec('clouds', 'test/integration/c.test.ts'),
        spec('shared', 'test/unit/a.test.ts'),
        spec('scenarios', 'test/e2e/d.test.ts'),
        spec('scenarios', 'test/e2e/e.test.ts'),
      ]),
    ).toEqual([
      'scenarios:test/e2e/e.test.ts',
      'scenarios:test/e2e/d.test.ts',
      'clouds:test/integration/c.test.ts',
      'shared:test/unit/a.test.ts',
      'shared:test/unit/b.test.ts',
    ]);
  });

  it('puts files no run timed first: scenarios before integration tests, then larger before smaller', async () => {
    const s = sequencer(
      { 'scenarios:test/e2e/timed.test.ts': 80_000 },
      {
        'scenarios:test/integration/x.test.ts': 9_000,
        'scenarios:test/chaos/small.test.ts': 100,
        'scenarios:test/chaos/big.test.ts': 5_000,
        'scenarios:test/e2e/new.test.ts': 10,
      },
    );
    expect(
      await order(s, [
        spec('scenarios', 'test/integration/x.test.ts'),
        spec('scenarios', 'test/e2e/timed.test.ts'),
        spec('scenarios', 'test/chaos/small.test.ts'),
        spec('scenarios', 'test/e2e/new.test.ts'),
        spec('scenarios', 'test/chaos/big.test.ts'),
      ]),
    ).toEqual([
      'scenarios:test/e2e/new.test.ts',
      'scenarios:test/chaos/big.test.ts',
      'scenarios:test/chaos/small.test.ts',
      'scenarios:test/integration/x.test.ts',
      'scenarios:test/e2e/timed.test.ts',
    ]);
  });

  it('runs a project it does not know last', async () => {
    const s = sequencer({});
    expect(await order(s, [spec('other', 'test/x.test.ts'), spec('shared', 'test/unit/y.test.ts')])).toEqual([
      'shared:test/unit/y.test.ts',
      'other:test/x.test.ts',
    ]);
  });
});
