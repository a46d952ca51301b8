/**
 * The audit of joiner's NodeClaim mirror against Karpenter's v1 NodeClaim spec: the README's
 * mapping table names every field of that spec (the NodePool template's spec, from Karpenter's
 * CRD in test/fixtures/karpenter-fields.json, plus `resources`), and the mirror writes exactly the
 * fields the table says it writes.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { nodeClaimResource } from '../../../../functions/core/status/nodeclaim-resource.js';
import { pendingClaim } from '../lifecycle/fakes.js';

const fixture = JSON.parse(
  readFileSync(new URL('../../../fixtures/karpenter-fields.json', import.meta.url), 'utf8'),
) as { kinds: Record<string, string[]> };
const readme = readFileSync(new URL('../../../../README.md', import.meta.url), 'utf8');

/** Karpenter's v1 NodeClaim spec fields: its NodePool template's spec, and `resources` (the NodeClaim's own). */
function karpenterNodeClaimFields(): string[] {
  const prefix = 'spec.template.spec.';
  const fields = fixture.kinds['karpenter.sh/v1 NodePool']
    .filter((f) => f.startsWith(prefix))
    .map((f) => f.slice(prefix.length).split(/[.[]/)[0]);
  return [...new Set([...fields, 'resources'])].sort();
}

/** The README table's rows: field -> what joiner does with it. */
function mappingRows(): Map<string, string> {
  const start = readme.indexOf('| Karpenter v1 NodeClaim field |');
  if (start < 0) throw new Error('README has no NodeClaim mapping table');
  const rows = new Map<string, string>();
  for (const line of readme.slice(start).split('\n').slice(2)) {
    if (!line.startsWith('|')) break;
    const [, field, what] = line.split('|').map((c) => c.trim());
    rows.set(/^`([^`.]+)/.exec(field)?.[1] ?? field, what);
  }
  return rows;
}

describe("joiner's NodeClaim mirror against Karpenter's v1 NodeClaim spec", () => {
  it('the README maps every field of the spec', () => {
    expect([...mappingRows().keys()].sort()).toEqual(karpenterNodeClaimFields());
  });

  it('the mirror writes exactly the fields the README says it writes', () => {
    // A claim of a NodePool that sets every field (terminationGracePeriod is written only then).
    const claim = {
      ...pendingClaim('default-abc', 0),
      expireAfterMs: 3_600_000,
      terminationGracePeriodMs: 60_000,
    };
    const written = Object.keys(nodeClaimResource(claim).spec).sort();
    const said = [...mappingRows()].filter(([, what]) => !what.startsWith('not written')).map(([f]) => f);
    expect(written).toEqual(said.sort());
  });
});
