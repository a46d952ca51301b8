import { describe, expect, it } from 'vitest';
import { humanDuration } from '../../../../functions/simulator/kube/http/human-duration.js';
import { evalJsonPath } from '../../../../functions/simulator/kube/http/json-path.js';
import { wantsTable } from '../../../../functions/simulator/kube/http/table.js';
import { decodeProtobufBody } from '../../../../functions/simulator/kube/protobuf/decode-body.js';

/** Protocol buffers encoding of the few shapes the tests need. */
const varint = (n: number): number[] => {
  const out: number[] = [];
  let v = n;
  while (v > 0x7f) {
    out.push((v & 0x7f) | 0x80);
    v >>>= 7;
  }
  out.push(v);
  return out;
};
const bytes = (field: number, content: number[]): number[] => [
  ...varint((field << 3) | 2),
  ...varint(content.length),
  ...content,
];
const str = (field: number, s: string): number[] => bytes(field, [...Buffer.from(s)]);
const int = (field: number, n: number): number[] => [...varint(field << 3), ...varint(n)];
const envelope = (apiVersion: string, kind: string, raw: number[]): Buffer =>
  Buffer.from([
    0x6b,
    0x38,
    0x73,
    0x00,
    ...bytes(1, [...str(1, apiVersion), ...str(2, kind)]),
    ...bytes(2, raw),
  ]);

describe('protobuf request bodies (kubectl create deployment)', () => {
  it('decodes a Deployment, dropping gogo zero values but keeping replicas: 0', () => {
    const meta = [
      ...str(1, 'web'),
      ...str(2, ''),
      ...int(7, 0),
      ...bytes(8, []),
      ...bytes(11, [...str(1, 'app'), ...str(2, 'web')]),
    ];
    const container = [...str(1, 'nginx'), ...str(2, 'nginx'), ...bytes(8, []), ...int(16, 0)];
    const template = [
      ...bytes(1, bytes(11, [...str(1, 'app'), ...str(2, 'web')])),
      ...bytes(2, bytes(2, container)),
    ];
    const spec = [
      ...int(1, 0),
      ...bytes(2, bytes(1, [...str(1, 'app'), ...str(2, 'web')])),
      ...bytes(3, template),
      ...bytes(4, []),
    ];
    const status = [...int(1, 0), ...int(2, 0)];
    const body = envelope('apps/v1', 'Deployment', [
      ...bytes(1, meta),
      ...bytes(2, spec),
      ...bytes(3, status),
    ]);
    expect(decodeProtobufBody(body)).toEqual({
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'web', labels: { app: 'web' } },
      spec: {
        replicas: 0,
        selector: { matchLabels: { app: 'web' } },
        template: {
          metadata: { labels: { app: 'web' } },
          spec: { containers: [{ name: 'nginx', image: 'nginx', resources: {} }] },
        },
        strategy: {},
      },
    });
  });

  it('refuses what it cannot decode faithfully with 415, saying what to send', () => {
    expect(() => decodeProtobufBody(envelope('v1', 'Secret', []))).toThrow(
      /415|protobuf v1 Secret.*send JSON/,
    );
    const unknownField = envelope('apps/v1', 'Deployment', bytes(1, str(99, 'x')));
    expect(() => decodeProtobufBody(unknownField)).toThrow(/field 99 of ObjectMeta/);
    expect(() => decodeProtobufBody(Buffer.from('{"kind":"Pod"}'))).toThrow(/no k8s protobuf envelope/);
  });
});

describe('table helpers', () => {
  it('recognizes the Table Accept header kubectl sends', () => {
    expect(
      wantsTable(
        'application/json;as=Table;v=v1;g=meta.k8s.io,application/json;as=Table;v=v1beta1;g=meta.k8s.io,application/json',
      ),
    ).toBe('v1');
    expect(wantsTable('application/json')).toBeUndefined();
  });

  it('prints ages as kubectl does', () => {
    expect(
      [5_000, 150_000, 3_720_000, 30 * 3_600_000, 3 * 86_400_000 + 3_600_000].map(humanDuration),
    ).toEqual(['5s', '2m30s', '62m', '30h', '3d1h']);
  });

  it('evaluates printer-column JSONPath: escaped dots, indexes and filters', () => {
    const o = {
      metadata: { labels: { 'karpenter.sh/nodepool': 'default' } },
      status: {
        conditions: [
          { type: 'Launched', status: 'True' },
          { type: 'Ready', status: 'False' },
        ],
      },
    };
    expect(evalJsonPath(o, '.metadata.labels.karpenter\\.sh/nodepool')).toEqual(['default']);
    expect(evalJsonPath(o, '.status.conditions[?(@.type=="Ready")].status')).toEqual(['False']);
    expect(evalJsonPath(o, '.status.conditions[0].type')).toEqual(['Launched']);
    expect(evalJsonPath(o, '.status.missing')).toEqual([]);
  });
});
