/**
 * `/openapi/v2`: the document kubectl falls back to for a kind OpenAPI v3 lacks, derived from the
 * same per-group documents as `/openapi/v3`, as JSON or as gnostic's protobuf `openapi.v2.Document`
 * (what kubectl asks for). The protobuf is checked by decoding it field by field.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { readFields, type WireField } from '../../../../functions/simulator/kube/protobuf/wire-reader.js';
import { type Harness, startHarness } from './fixtures.js';

const KUBECTL_ACCEPT = 'application/com.github.proto-openapi.spec.v2@v1.0+protobuf';

const CRD = {
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: 'widgets.example.com' },
  spec: {
    group: 'example.com',
    scope: 'Namespaced',
    names: { plural: 'widgets', singular: 'widget', kind: 'Widget' },
    versions: [
      {
        name: 'v1',
        served: true,
        storage: true,
        schema: {
          openAPIV3Schema: {
            type: 'object',
            properties: {
              spec: {
                type: 'object',
                required: ['size'],
                'x-kubernetes-validations': [{ rule: 'self.size > 0', message: 'size must be positive' }],
                properties: {
                  size: { type: 'integer', format: 'int32', description: 'how big' },
                  names: { type: 'array', items: { type: 'string' } },
                  labels: { type: 'object', additionalProperties: { type: 'string' } },
                  port: {
                    'x-kubernetes-int-or-string': true,
                    anyOf: [{ type: 'integer' }, { type: 'string' }],
                  },
                  note: { type: 'string', nullable: true },
                },
              },
            },
          },
        },
      },
    ],
  },
};

let h: Harness;
beforeEach(async () => {
  h = await startHarness();
  await h.sim.store.create(CRD);
});
afterEach(async () => {
  await h.sim.close();
});

async function get(accept?: string): Promise<Response> {
  const token = h.kc.getCurrentUser()?.token;
  const headers: Record<string, string> = {
    ...(token ? { Authorization: `Bearer ${token}` } : {}),
    ...(accept ? { Accept: accept } : {}),
  };
  return fetch(`${h.sim.url}/openapi/v2`, { headers });
}

const text = (f: WireField | undefined) =>
  f && f.wire === 2 ? Buffer.from(f.bytes).toString('utf8') : undefined;
const sub = (f: WireField) => (f.wire === 2 ? readFields(f.bytes) : []);
const all = (fields: WireField[], n: number) => fields.filter((f) => f.field === n);
const one = (fields: WireField[], n: number) => all(fields, n)[0];
/** A repeated Named* entry (name = 1, value = 2) by its name. */
function named(fields: WireField[], n: number, name: string): WireField[] {
  const entry = all(fields, n).find((f) => text(one(sub(f), 1)) === name);
  if (!entry) throw new Error(`no entry ${name}`);
  return sub(one(sub(entry), 2));
}

describe('the simulated API server serves /openapi/v2', () => {
  it('as JSON: every kind of /openapi/v3 with its schema, v3-only keywords left out, and the fieldValidation parameter', async () => {
    const res = await get('application/json');
    expect(res.status).toBe(200);
    const doc = (await res.json()) as {
      swagger: string;
      paths: Record<
        string,
        Record<string, { parameters?: { name: string; in: string }[]; [k: string]: unknown }>
      >;
      definitions: Record<string, { properties: Record<string, { properties: Record<string, unknown> }> }>;
    };
    expect(doc.swagger).toBe('2.0');
    const patch = doc.paths['/apis/example.com/v1/namespaces/{namespace}/widgets/{name}'].patch;
    expect(patch['x-kubernetes-group-version-kind']).toEqual({
      group: 'example.com',
      version: 'v1',
      kind: 'Widget',
    });
    expect(patch.parameters?.map((p) => p.name)).toContain('fieldValidation');
    expect(Object.keys(doc.paths)).toContain('/api/v1/namespaces/{namespace}/pods/{name}');
    const spec = doc.definitions['com.example.v1.Widget'].properties.spec as unknown as Record<
      string,
      unknown
    >;
    expect(spec).toEqual({
      type: 'object',
      required: ['size'],
      properties: {
        size: { type: 'integer', format: 'int32', description: 'how big' },
        names: { type: 'array', items: { type: 'string' } },
        labels: { type: 'object', additionalProperties: { type: 'string' } },
        port: { 'x-kubernetes-int-or-string': true },
        note: { type: 'string' },
      },
    });
  });

  it("as gnostic's protobuf Document when kubectl asks for it, with the same paths and definitions", async () => {
    const json = (await (await get()).json()) as { paths: object; definitions: object };
    const res = await get(KUBECTL_ACCEPT);
    expect(res.status).toBe(200);
    // The Content-Type a client can parse (the Accept form's `@` is not valid in a media type).
    expect(res.headers.get('content-type')).toBe(
      'application/com.github.proto-openapi.spec.v2.v1.0+protobuf',
    );
    const doc = readFields(new Uint8Array(await res.arrayBuffer()));
    expect(text(one(doc, 1))).toBe('2.0');
    const paths = sub(one(doc, 8));
    expect(all(paths, 2).map((p) => text(one(sub(p), 1)))).toEqual(Object.keys(json.paths));
    const definitions = sub(one(doc, 9));
    expect(all(definitions, 1).map((d) => text(one(sub(d), 1)))).toEqual(Object.keys(json.definitions));

    // PathItem.patch (8): the GVK as a YAML vendor extension, and the fieldValidation query parameter.
    const item = named(paths, 2, '/apis/example.com/v1/namespaces/{namespace}/widgets/{name}');
    const patch = sub(one(item, 8));
    const gvk = named(patch, 13, 'x-kubernetes-group-version-kind');
    expect(parse(text(one(gvk, 2)) ?? '')).toEqual({ group: 'example.com', version: 'v1', kind: 'Widget' });
    const queryNames = all(patch, 8).map((p) => {
      const parameter = sub(one(sub(p), 1));
      const nonBody = one(parameter, 2);
      return nonBody ? text(one(sub(one(sub(nonBody), 3)), 4)) : undefined;
    });
    expect(queryNames).toContain('fieldValidation');

    // Schema: properties (25) -> spec -> properties -> size: type (22) integer, format (2) int32.
    const widget = named(definitions, 1, 'com.example.v1.Widget');
    const spec = named(sub(one(widget, 25)), 1, 'spec');
    expect(all(spec, 19).map(text)).toEqual(['size']);
    const size = named(sub(one(spec, 25)), 1, 'size');
    expect(text(one(sub(one(size, 22)), 1))).toBe('integer');
    expect(text(one(size, 2))).toBe('int32');
    const names = named(sub(one(spec, 25)), 1, 'names');
    expect(text(one(sub(one(names, 22)), 1))).toBe('array');
    const item0 = sub(one(sub(one(names, 23)), 1));
    expect(text(one(sub(one(item0, 22)), 1))).toBe('string');
  });
});
