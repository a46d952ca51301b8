/**
 * The OpenAPI v2 document (`/openapi/v2`), derived from the same per-group documents as
 * `/openapi/v3` (openapi-v3.ts), so the two never disagree. kubectl reads it when a kind it is
 * asked to apply is missing from OpenAPI v3 (it then falls back to the v2 document to learn whether
 * the server checks fields, and to validate the object itself): a real API server serves it, so
 * kubectl validates there without `--validate=false`, and so it does here.
 *
 * Served as JSON, or as the protobuf encoding of gnostic's `openapi.v2.Document` when asked for
 * (kubectl asks for `application/com.github.proto-openapi.spec.v2@v1.0+protobuf`; the answer's
 * Content-Type is the `.v1.0` form). Schemas keep
 * what OpenAPI v2 can say and kubectl's v2 parser accepts (type, format, description, required,
 * properties, items, additionalProperties, `$ref`); v3-only keywords (nullable, oneOf/anyOf, CEL
 * rules...) are left out, as Kubernetes does when it publishes CRD schemas in v2.
 */
import { stringify } from 'yaml';
import type { KubeApi } from '../api/kube-api.js';
import {
  boolField,
  type Encoded,
  message,
  messageField,
  stringField,
  stringsField,
} from '../protobuf/wire-writer.js';
import { groupVersionDocument } from './openapi-v3.js';

type Doc = Record<string, unknown>;

/**
 * The media type of the protobuf encoding, as the API server names it in Content-Type (an `@` is
 * not valid there: clients' media-type parsers refuse it).
 */
export const OPENAPI_V2_PROTOBUF = 'application/com.github.proto-openapi.spec.v2.v1.0+protobuf';

/** Whether an Accept header asks for the protobuf encoding (kubectl sends the older `@v1.0` name). */
export function acceptsOpenApiV2Protobuf(accept: string | undefined): boolean {
  return /com\.github\.proto-openapi\.spec\.v2[@.]v1\.0\+protobuf/.test(accept ?? '');
}

const TYPES = new Set(['object', 'array', 'string', 'integer', 'number', 'boolean']);
const OPERATIONS = ['get', 'put', 'post', 'delete', 'patch'] as const;

const asDoc = (v: unknown): Doc | undefined =>
  v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Doc) : undefined;

/** A v3 schema as an OpenAPI v2 schema (see the file comment for what is kept). */
export function v2Schema(schema: unknown): Doc {
  const s = asDoc(schema) ?? {};
  if (typeof s.$ref === 'string') return { $ref: s.$ref.replace('#/components/schemas/', '#/definitions/') };
  const out: Doc = {};
  if (typeof s.description === 'string') out.description = s.description;
  if (typeof s.format === 'string') out.format = s.format;
  const items = asDoc(s.items);
  // An array without one item schema, or a type v2 cannot name, is published without a type.
  if (typeof s.type === 'string' && TYPES.has(s.type) && (s.type !== 'array' || items)) out.type = s.type;
  if (out.type === 'array' && items) out.items = v2Schema(items);
  const properties = asDoc(s.properties);
  if (properties)
    out.properties = Object.fromEntries(Object.entries(properties).map(([k, v]) => [k, v2Schema(v)]));
  if (Array.isArray(s.required) && s.required.length > 0)
    out.required = s.required.filter((r) => typeof r === 'string');
  if (typeof s.additionalProperties === 'boolean') out.additionalProperties = s.additionalProperties;
  else if (asDoc(s.additionalProperties)) out.additionalProperties = v2Schema(s.additionalProperties);
  for (const [k, v] of Object.entries(s))
    if (k.startsWith('x-kubernetes-') && k !== 'x-kubernetes-validations') out[k] = v;
  return out;
}

function v2Operation(op: Doc): Doc {
  const parameters: Doc[] = [];
  for (const p of (op.parameters as Doc[] | undefined) ?? []) {
    const type = asDoc(p.schema)?.type;
    parameters.push({ name: p.name, in: p.in, type, uniqueItems: true });
  }
  const body = asDoc(asDoc(asDoc(op.requestBody)?.content)?.['application/json'])?.schema;
  if (body) parameters.push({ name: 'body', in: 'body', required: true, schema: v2Schema(body) });
  const responses: Doc = {};
  for (const [code, r] of Object.entries(asDoc(op.responses) ?? {})) {
    const schema = asDoc(asDoc(asDoc(r)?.content)?.['application/json'])?.schema;
    responses[code] = {
      description: String(asDoc(r)?.description ?? ''),
      ...(schema ? { schema: v2Schema(schema) } : {}),
    };
  }
  const out: Doc = { responses };
  if (parameters.length > 0) out.parameters = parameters;
  for (const [k, v] of Object.entries(op)) if (k.startsWith('x-kubernetes-')) out[k] = v;
  return out;
}

/** The whole v2 document: every served group/version's paths and definitions. */
export function openApiV2Document(api: KubeApi): Doc {
  const paths: Doc = {};
  const definitions: Doc = {};
  for (const { group, versions } of api.registry.groupVersions()) {
    for (const version of versions) {
      const v3 = groupVersionDocument(api, group, version);
      if (!v3) continue;
      for (const [path, item] of Object.entries(asDoc(v3.paths) ?? {})) {
        const ops = asDoc(item) ?? {};
        paths[path] = Object.fromEntries(
          OPERATIONS.filter((o) => asDoc(ops[o])).map((o) => [o, v2Operation(ops[o] as Doc)]),
        );
      }
      for (const [name, schema] of Object.entries(asDoc(asDoc(v3.components)?.schemas) ?? {}))
        definitions[name] = v2Schema(schema);
    }
  }
  return { swagger: '2.0', info: asDoc(groupVersionDocument(api, '', 'v1')?.info) ?? {}, paths, definitions };
}

/** gnostic's `NamedAny` list of a map's `x-` keys, each value as YAML. */
function vendorExtensions(field: number, doc: Doc): Encoded[] {
  return Object.entries(doc)
    .filter(([k]) => k.startsWith('x-'))
    .map(([k, v]) =>
      messageField(field, [stringField(1, k), messageField(2, [stringField(2, stringify(v))])]),
    );
}

function encodeSchema(s: Doc): Encoded[] {
  const props = asDoc(s.properties);
  const additional = s.additionalProperties;
  return [
    stringField(1, s.$ref as string | undefined),
    stringField(2, s.format as string | undefined),
    stringField(4, s.description as string | undefined),
    stringsField(19, s.required as string[] | undefined),
    typeof additional === 'boolean'
      ? messageField(21, [boolField(2, additional, true)])
      : asDoc(additional)
        ? messageField(21, [messageField(1, encodeSchema(additional as Doc))])
        : undefined,
    typeof s.type === 'string' ? messageField(22, [stringField(1, s.type)]) : undefined,
    asDoc(s.items) ? messageField(23, [messageField(1, encodeSchema(s.items as Doc))]) : undefined,
    props
      ? messageField(
          25,
          Object.entries(props).map(([k, v]) =>
            messageField(1, [stringField(1, k), messageField(2, encodeSchema(v as Doc))]),
          ),
        )
      : undefined,
    ...vendorExtensions(31, s),
  ];
}

function encodeParameter(p: Doc): Encoded {
  if (p.in === 'body')
    return messageField(8, [
      messageField(1, [
        messageField(1, [
          stringField(2, p.name as string),
          stringField(3, 'body'),
          boolField(4, p.required === true),
          messageField(5, encodeSchema(p.schema as Doc)),
        ]),
      ]),
    ]);
  return messageField(8, [
    messageField(1, [
      messageField(2, [
        messageField(3, [
          stringField(2, p.in as string),
          stringField(4, p.name as string),
          stringField(6, p.type as string | undefined),
          boolField(20, p.uniqueItems === true),
        ]),
      ]),
    ]),
  ]);
}

function encodeOperation(field: number, op: Doc): Encoded {
  const responses = Object.entries(asDoc(op.responses) ?? {}).map(([code, r]) => {
    const response = r as Doc;
    return messageField(1, [
      stringField(1, code),
      messageField(2, [
        messageField(1, [
          stringField(1, response.description as string),
          asDoc(response.schema)
            ? messageField(2, [messageField(1, encodeSchema(response.schema as Doc))])
            : undefined,
        ]),
      ]),
    ]);
  });
  return messageField(field, [
    ...((op.parameters as Doc[] | undefined) ?? []).map(encodeParameter),
    messageField(9, responses),
    ...vendorExtensions(13, op),
  ]);
}

/** Field numbers of a PathItem's operations in gnostic's `openapi.v2.PathItem`. */
const OPERATION_FIELDS: Record<(typeof OPERATIONS)[number], number> = {
  get: 2,
  put: 3,
  post: 4,
  delete: 5,
  patch: 8,
};

/** The protobuf encoding (gnostic's `openapi.v2.Document`) of a document built by {@link openApiV2Document}. */
export function encodeOpenApiV2(doc: Doc): Uint8Array {
  const info = asDoc(doc.info) ?? {};
  const paths = Object.entries(asDoc(doc.paths) ?? {}).map(([path, item]) =>
    messageField(2, [
      stringField(1, path),
      messageField(
        2,
        OPERATIONS.filter((o) => asDoc(asDoc(item)?.[o])).map((o) =>
          encodeOperation(OPERATION_FIELDS[o], (item as Doc)[o] as Doc),
        ),
      ),
    ]),
  );
  const definitions = Object.entries(asDoc(doc.definitions) ?? {}).map(([name, schema]) =>
    messageField(1, [stringField(1, name), messageField(2, encodeSchema(schema as Doc))]),
  );
  return message([
    stringField(1, doc.swagger as string),
    messageField(2, [
      stringField(1, info.title as string | undefined),
      stringField(2, info.version as string | undefined),
    ]),
    messageField(8, paths),
    messageField(9, definitions),
  ]);
}
