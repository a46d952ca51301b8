/**
 * OpenAPI v3 documents (`/openapi/v3` and `/openapi/v3/{api/v1 | apis/group/version}`), so kubectl
 * validates what it applies as it does against a real cluster: each kind's PATCH operation
 * declares the `fieldValidation` query parameter, so kubectl sends `fieldValidation=Strict` and the
 * server checks the fields (see field-validation.ts). Custom resources get their CRD's schema;
 * built-in kinds an open object schema (the simulator does not carry Kubernetes' type schemas).
 */
import { createHash } from 'node:crypto';
import type { KubeApi } from '../api/kube-api.js';
import type { ResourceType } from '../api/resource-registry.js';
import { crdSchemaOf } from './crd-schema.js';

type Doc = Record<string, unknown>;

function gvPath(group: string, version: string): string {
  return group ? `apis/${group}/${version}` : `api/${version}`;
}

/** `com.example.v1.Kind` for a group `example.com` (Kubernetes' reverse-domain schema names). */
function schemaName(type: ResourceType): string {
  if (!type.group) return `io.k8s.api.core.${type.version}.${type.kind}`;
  if (!type.group.includes('.')) return `io.k8s.api.${type.group}.${type.version}.${type.kind}`;
  return `${type.group.split('.').reverse().join('.')}.${type.version}.${type.kind}`;
}

const QUERY_PARAMS = ['dryRun', 'fieldManager', 'fieldValidation', 'force'].map((name) => ({
  name,
  in: 'query',
  schema: { type: name === 'force' ? 'boolean' : 'string', uniqueItems: true },
}));

/** The OpenAPI v3 document of one group/version, or undefined when it is not served. */
export function groupVersionDocument(api: KubeApi, group: string, version: string): Doc | undefined {
  const types = api.registry
    .all()
    .filter((t) => t.group === group && t.version === version && !['bindings'].includes(t.plural));
  if (types.length === 0) return undefined;
  const paths: Record<string, unknown> = {};
  const schemas: Record<string, unknown> = {};
  for (const t of types) {
    const gvk = { group: t.group, version: t.version, kind: t.kind };
    const base = `/${gvPath(t.group, t.version)}${t.namespaced ? '/namespaces/{namespace}' : ''}/${t.plural}`;
    const ref = { $ref: `#/components/schemas/${schemaName(t)}` };
    const body = { content: { 'application/json': { schema: ref } } };
    const ok = { '200': { description: 'OK', content: { 'application/json': { schema: ref } } } };
    paths[base] = {
      post: {
        'x-kubernetes-group-version-kind': gvk,
        'x-kubernetes-action': 'post',
        parameters: QUERY_PARAMS,
        requestBody: body,
        responses: ok,
      },
    };
    paths[`${base}/{name}`] = {
      get: { 'x-kubernetes-group-version-kind': gvk, 'x-kubernetes-action': 'get', responses: ok },
      put: {
        'x-kubernetes-group-version-kind': gvk,
        'x-kubernetes-action': 'put',
        parameters: QUERY_PARAMS,
        requestBody: body,
        responses: ok,
      },
      patch: {
        'x-kubernetes-group-version-kind': gvk,
        'x-kubernetes-action': 'patch',
        parameters: QUERY_PARAMS,
        responses: ok,
      },
    };
    const schema = crdSchemaOf(api, t) ?? { type: 'object', 'x-kubernetes-preserve-unknown-fields': true };
    schemas[schemaName(t)] = { ...schema, 'x-kubernetes-group-version-kind': [gvk] };
  }
  return {
    openapi: '3.0.0',
    info: { title: 'Kubernetes (joiner simulated cluster)', version: 'v1.32.0' },
    paths,
    components: { schemas },
  };
}

/** `/openapi/v3`: every served group/version with the URL (and content hash) of its document. */
export function openApiIndex(api: KubeApi): Doc {
  const paths: Record<string, { serverRelativeURL: string }> = {};
  for (const { group, versions } of api.registry.groupVersions()) {
    for (const version of versions) {
      const doc = groupVersionDocument(api, group, version);
      if (!doc) continue;
      const hash = createHash('sha512').update(JSON.stringify(doc)).digest('hex').slice(0, 32).toUpperCase();
      const path = gvPath(group, version);
      paths[path] = { serverRelativeURL: `/openapi/v3/${path}?hash=${hash}` };
    }
  }
  return { paths };
}

/** Answers a GET under `/openapi/v3`, or undefined for a path it does not serve. */
export function openApiV3(api: KubeApi, pathname: string): Doc | undefined {
  const rest = pathname.replace(/^\/openapi\/v3\/?/, '');
  if (rest === '') return openApiIndex(api);
  const core = /^api\/([^/]+)$/.exec(rest);
  if (core) return groupVersionDocument(api, '', core[1]);
  const named = /^apis\/([^/]+)\/([^/]+)$/.exec(rest);
  return named ? groupVersionDocument(api, named[1], named[2]) : undefined;
}
