import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseYamlDocuments } from '../../../../../functions/core/model/config/raw-document.js';
import { runJoiner } from '../../../../helpers/run-joiner.js';

const FIX = 'test/unit/core/model/config/fixtures';
const GOOD = 'apiVersion: karpenter.sh/v1\nkind: NodePool\nmetadata:\n  name: fine\n';

function parse(text: string) {
  return parseYamlDocuments('f.yaml', text);
}

describe('YAML anchors and aliases', () => {
  it('a self-referencing anchor is a clear error for its document; the other documents still load', () => {
    const r = parse(`${readFileSync(`${FIX}/yaml-self-alias.yaml`, 'utf8')}---\n${GOOD}`);
    expect(r.diagnostics).toHaveLength(1);
    expect(r.diagnostics[0]).toMatchObject({ severity: 'error', file: 'f.yaml', document: 'document 1' });
    expect(r.diagnostics[0].message).toMatch(/YAML alias \*spec refers to a node that contains it/);
    expect(r.documents.map((d) => (d.object as { metadata: { name: string } }).metadata.name)).toEqual([
      'fine',
    ]);
  });

  it('an alias bomb is refused with a clear error instead of being expanded', () => {
    const r = parse(readFileSync(`${FIX}/yaml-alias-bomb.yaml`, 'utf8'));
    expect(r.documents).toEqual([]);
    expect(r.diagnostics).toHaveLength(1);
    expect(r.diagnostics[0].message).toMatch(/too many YAML aliases/);
    expect(r.diagnostics[0].message).toMatch(/1000/);
  });

  it('an alias without its anchor is an error, not an exception', () => {
    const r = parse('a: *nowhere\n');
    expect(r.diagnostics[0].message).toMatch(/YAML syntax error.*nowhere/);
  });

  it('joiner validate prints both as errors, with no stack trace', async () => {
    const r = await runJoiner(
      'validate',
      '-f',
      `${FIX}/yaml-self-alias.yaml`,
      '-f',
      `${FIX}/yaml-alias-bomb.yaml`,
    );
    expect(r.code).toBe(1);
    const all = r.out;
    expect(all).toContain(
      `${FIX}/yaml-self-alias.yaml: document 1: YAML alias *spec refers to a node that contains it`,
    );
    expect(all).toContain(`${FIX}/yaml-alias-bomb.yaml: document 1: too many YAML aliases`);
    expect(all).not.toMatch(/\n\s+at /);
  });
});
