import { describe, expect, it } from 'vitest';
import { loadFiles } from '../../../../functions/adapters/files/load-files.js';
import { expandPaths } from '../../../../functions/adapters/files/read-documents.js';

describe('loadFiles', () => {
  it('reads directories recursively, .yaml files in name order', async () => {
    const { files } = await expandPaths(['examples/seed-003']);
    expect(files).toEqual([...files].sort());
    expect(files.every((f) => /\.(ya?ml|json)$/.test(f))).toBe(true);
    expect(files.length).toBeGreaterThanOrEqual(5);
  });

  it('combines files and directories', async () => {
    const loaded = await loadFiles(['examples/seed-004/provisioners.yaml', 'examples/seed-002']);
    expect(loaded.nodePools.map((p) => p.name).sort()).toEqual([
      'addons-ondemand',
      'default',
      'spot-general',
    ]);
    expect(loaded.workloads.pods).toHaveLength(4);
  });

  it('a missing path is an error naming it, and the other paths still load', async () => {
    const loaded = await loadFiles(['does/not/exist.yaml', 'examples/seed-002']);
    expect(loaded.diagnostics).toEqual([
      expect.objectContaining({
        severity: 'error',
        file: 'does/not/exist.yaml',
        message: 'no such file or directory',
      }),
    ]);
    expect(loaded.nodePools).toHaveLength(1);
  });
});
