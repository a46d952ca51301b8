import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { loadDocuments } from '../../../../../functions/core/model/config/load.js';
import { parseYamlDocuments } from '../../../../../functions/core/model/config/raw-document.js';
import { runJoiner } from '../../../../helpers/run-joiner.js';
import { DEFAULT_NODE_CLASS, errorsOf, load, v1Pool } from './helpers.js';

/** Nine levels of ten aliases each: a billion strings if expanded ("billion laughs"). */
const ALIAS_BOMB = [
  'a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol","lol"]',
  ...'bcdefghij'.split('').map((c, i) => {
    const prev = 'abcdefghij'[i];
    return `${c}: &${c} [${Array(10).fill(`*${prev}`).join(',')}]`;
  }),
].join('\n');

function loadText(text: string) {
  const { documents, diagnostics } = parseYamlDocuments('bad.yaml', text);
  const loaded = loadDocuments(documents);
  return [...diagnostics, ...loaded.diagnostics];
}

describe('configuration documents that try to hurt', () => {
  it("an alias bomb is one clear error in bounded time, and the file's other documents still load", () => {
    const started = performance.now();
    const diagnostics = loadText(`${ALIAS_BOMB}\n---\n${JSON.stringify(DEFAULT_NODE_CLASS)}\n`);
    expect(performance.now() - started).toBeLessThan(2_000);
    expect(diagnostics).toEqual([
      expect.objectContaining({
        severity: 'error',
        file: 'bad.yaml',
        document: 'document 1',
        message: expect.stringMatching(/too many YAML aliases \(more than 1000 expanded/),
      }),
    ]);
  });

  it('10,000 requirements are refused with the limit named', () => {
    const requirements = Array.from({ length: 10_000 }, (_, i) => ({
      key: `example.com/k${i}`,
      operator: 'In',
      values: ['a'],
    }));
    const errors = errorsOf(load(DEFAULT_NODE_CLASS, v1Pool('many', { requirements })));
    expect(errors).toEqual([
      expect.objectContaining({
        document: 'NodePool/many',
        path: 'spec.template.spec.requirements',
        message: "at most 100 requirements are allowed (as in Karpenter's NodePool)",
      }),
    ]);
  });

  it.each([
    ['1e30', /spec\.limits\.cpu: quantity "1e30" is larger than Kubernetes allows/],
    ['-5', /spec\.limits\.cpu: quantity "-5" must not be negative/],
    ['abc', /spec\.limits\.cpu: invalid quantity "abc"/],
    [1e308, /spec\.limits\.cpu: quantity 1e\+308 is larger than Kubernetes allows/],
  ])('a limit of %j is an error naming the field', (cpu, message) => {
    const errors = errorsOf(load(DEFAULT_NODE_CLASS, v1Pool('huge', {}, { limits: { cpu } })));
    expect(errors.map((e) => `${e.path}: ${e.message}`).join('\n')).toMatch(message);
  });

  it('a weight of 1e308 is an error naming the field', () => {
    const errors = errorsOf(load(DEFAULT_NODE_CLASS, v1Pool('heavy', {}, { weight: 1e308 })));
    expect(errors.map((e) => e.path)).toContain('spec.weight');
  });

  const many = (n: number, entry: (i: number) => [string, unknown]) =>
    Object.fromEntries(Array.from({ length: n }, (_, i) => entry(i)));
  const multusNodeClass = (count: number) => ({
    ...DEFAULT_NODE_CLASS,
    apiVersion: 'joiner.sh/v1',
    kind: 'NodeClass',
    metadata: { name: 'multus' },
    spec: {
      ...DEFAULT_NODE_CLASS.spec,
      multusInterfaces: Array.from({ length: count }, (_, i) => ({
        deviceIndex: (i % 15) + 1,
        networkCardIndex: Math.floor(i / 15),
        subnetSelectorTerms: [{ id: `subnet-${i}` }],
        securityGroupSelectorTerms: [{ id: 'sg-1' }],
      })),
    },
  });
  const overlay = (capacity: Record<string, unknown>) => ({
    apiVersion: 'karpenter.sh/v1alpha1',
    kind: 'NodeOverlay',
    metadata: { name: 'extras' },
    spec: { requirements: [], capacity },
  });
  /** Documents over the bounds that keep the CRDs' CEL rules cheap, and the error joiner gives. */
  const OVER_BOUNDS: [string, object, string][] = [
    [
      '101 template labels',
      v1Pool('labelled', {}, {}),
      "NodePool/labelled: spec.template.metadata.labels: at most 100 labels are allowed, got 101 (as in Karpenter's NodePool)",
    ],
    [
      'a requirement value of 64 characters',
      v1Pool('long', {
        requirements: [{ key: 'example.com/team', operator: 'In', values: ['a'.repeat(64)] }],
      }),
      'NodePool/long: spec.template.spec.requirements[0].values[0]: a requirement value is at most 63 characters (a label value)',
    ],
    [
      '101 overlay capacity entries',
      overlay(many(101, (i) => [`example.com/r${i}`, 1])),
      'NodeOverlay/extras: spec.capacity: at most 100 capacity entries are allowed, got 101 (an overlay adds a few extended resources)',
    ],
    [
      '151 Multus interfaces',
      multusNodeClass(151),
      'NodeClass/multus: spec.multusInterfaces: at most 150 Multus interfaces are allowed',
    ],
  ];
  const labelled = OVER_BOUNDS[0][1] as { spec: { template: Record<string, unknown> } };
  labelled.spec.template.metadata = { labels: many(101, (i) => [`example.com/l${i}`, 'a']) };

  it.each(OVER_BOUNDS)('%s: an error naming the field', (_what, doc, expected) => {
    const errors = errorsOf(load(DEFAULT_NODE_CLASS, doc));
    expect(
      errors.map((e) => `${e.document}: ${e.path}: ${e.message}${e.hint ? ` (${e.hint})` : ''}`),
    ).toContain(expected);
  });

  it('at the bounds (100 labels, 63 characters, 100 capacity entries, 150 Multus interfaces) there is no error', () => {
    const pool = v1Pool('full', {
      requirements: [{ key: 'example.com/team', operator: 'In', values: ['a'.repeat(63)] }],
    }) as { spec: { template: Record<string, unknown> } };
    pool.spec.template.metadata = { labels: many(100, (i) => [`example.com/l${i}`, 'a']) };
    const docs = [pool, overlay(many(100, (i) => [`example.com/r${i}`, 1])), multusNodeClass(150)];
    expect(errorsOf(load(DEFAULT_NODE_CLASS, ...docs))).toEqual([]);
  });

  it('joiner validate names the field of a document over a bound', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'joiner-bounds-'));
    writeFileSync(join(dir, 'nodeclass.yaml'), stringify(DEFAULT_NODE_CLASS));
    writeFileSync(join(dir, 'multus.yaml'), stringify(multusNodeClass(151)));
    const r = await runJoiner('validate', '-f', join(dir, 'nodeclass.yaml'), '-f', join(dir, 'multus.yaml'));
    expect(r.code).toBe(1);
    expect(r.out).toContain(
      `${join(dir, 'multus.yaml')}: NodeClass/multus: spec.multusInterfaces: at most 150 Multus interfaces are allowed`,
    );
  }, 30_000);

  it('the CLI reports an alias bomb file as a problem of that file, without a stack trace', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'joiner-bad-'));
    writeFileSync(join(dir, 'bomb.yaml'), ALIAS_BOMB);
    const r = await runJoiner('validate', '-f', join(dir, 'bomb.yaml'));
    expect(r.code).toBe(1);
    expect(r.out).toMatch(/bomb\.yaml.*too many YAML aliases/);
    expect(r.out).not.toMatch(/\n\s+at /);
  }, 30_000);
});

describe('the configuration loader (property)', () => {
  it('never throws on any YAML text, and every diagnostic names its file and document', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 400 }), (text) => {
        for (const d of loadText(text)) {
          expect(d.file).toBe('bad.yaml');
          expect(d.document).toBeTruthy();
          expect(d.message).toBeTruthy();
        }
      }),
      { numRuns: 300, seed: 19 },
    );
  });

  it('never throws on any JSON value in any field of a NodePool, and reports errors with a path', () => {
    const pool = v1Pool('p') as { spec: Record<string, unknown> };
    const fields = ['limits', 'weight', 'disruption', 'template', 'requirements'];
    fc.assert(
      fc.property(fc.constantFrom(...fields), fc.jsonValue({ maxDepth: 3 }), (field, value) => {
        const doc =
          field === 'requirements'
            ? v1Pool('p', { requirements: value })
            : { ...pool, spec: { ...pool.spec, [field]: value } };
        const loaded = load(DEFAULT_NODE_CLASS, doc);
        for (const e of errorsOf(loaded)) expect(e.document).toMatch(/^(NodePool\/p|document \d+)$/);
        // Valid or not, the NodeClass next to it loads.
        expect(loaded.nodeClasses.map((c) => c.name)).toEqual(['default']);
      }),
      { numRuns: 200, seed: 19 },
    );
  });
});
