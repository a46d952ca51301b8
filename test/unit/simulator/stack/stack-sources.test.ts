/**
 * The synthesized stack is cached by a hash of its sources: every file the stack imports, however
 * deep (the install manifests, the batching settings of its event source mappings, node role
 * names...), must be among them, or an edit of that file would leave scenarios running a stale
 * template.
 */
import { readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { stackSourceFiles } from '../../../../functions/simulator/stack/synthesize-stack.js';

const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));

/** The repository's TypeScript files `entry` imports, directly or not (relative imports only). */
function importsOf(entry: string): Set<string> {
  const seen = new Set<string>();
  const todo = [entry];
  while (todo.length > 0) {
    const file = todo.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    const text = readFileSync(join(ROOT, file), 'utf8');
    for (const m of text.matchAll(/(?:from|import)\s*\(?\s*'(\.[^']+)\.js'/g)) {
      todo.push(
        relative(ROOT, join(ROOT, dirname(file), `${m[1]}.ts`))
          .split('\\')
          .join('/'),
      );
    }
  }
  return seen;
}

describe('the simulated stack cache key', () => {
  it('covers every source file the stack imports', async () => {
    const hashed = new Set(await stackSourceFiles());
    const imported = [...importsOf('lib/joiner-stack.ts')];
    expect(imported.length).toBeGreaterThan(20);
    expect(imported).toContain('functions/core/install/manifests.ts');
    expect(imported).toContain('functions/core/provisioning/batch-window.ts');
    expect(imported.filter((f) => !hashed.has(f))).toEqual([]);
  });
});
