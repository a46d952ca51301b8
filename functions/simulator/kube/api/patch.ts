/**
 * The three patch formats of the Kubernetes API: JSON patch (RFC 6902), JSON merge patch
 * (RFC 7386) and strategic merge patch (merge patch where some lists merge by a key, with the
 * `$patch` and `$deleteFromPrimitiveList` directives) for the fields joiner touches.
 */
import { ApiError, badRequest } from './api-error.js';
import { deepCopy } from './deep-copy.js';

export type PatchType = 'json' | 'merge' | 'strategic' | 'apply';

type Json = unknown;
type JsonObject = Record<string, Json>;

const CONTENT_TYPES: Record<string, PatchType> = {
  'application/json-patch+json': 'json',
  'application/merge-patch+json': 'merge',
  'application/strategic-merge-patch+json': 'strategic',
  'application/apply-patch+yaml': 'apply',
};

/** The patch type of a request's Content-Type; 415 when it is not a patch type. */
export function patchTypeOf(contentType: string | undefined): PatchType {
  const type = CONTENT_TYPES[(contentType ?? '').split(';')[0].trim()];
  if (!type) {
    throw new ApiError(
      415,
      'UnsupportedMediaType',
      `the body of the request was in an unknown format - accepted media types include: ${Object.keys(CONTENT_TYPES).join(', ')}`,
    );
  }
  return type;
}

const isObject = (v: Json): v is JsonObject => v !== null && typeof v === 'object' && !Array.isArray(v);

/** Applies a patch of the given type to `target` (not modified) and returns the result. */
export function applyPatch(type: PatchType, target: JsonObject, patch: Json): JsonObject {
  const base = deepCopy(target);
  if (type === 'json') return applyJsonPatch(base, patch) as JsonObject;
  if (!isObject(patch)) throw badRequest('a merge patch must be a JSON object');
  if (type === 'merge') return mergePatch(base, patch) as JsonObject;
  return strategicMerge(base, patch, []) as JsonObject;
}

/** RFC 7386. */
export function mergePatch(target: Json, patch: Json): Json {
  if (!isObject(patch)) return deepCopy(patch);
  const out: JsonObject = isObject(target) ? { ...target } : {};
  for (const [k, v] of Object.entries(patch)) {
    if (v === null) delete out[k];
    else out[k] = mergePatch(out[k], v);
  }
  return out;
}

/** List fields that merge by a key (path from the object root, `*` for any map key). */
const MERGE_KEYS: Record<string, string> = {
  'spec.taints': 'key',
  'status.conditions': 'type',
  'status.addresses': 'type',
  'spec.containers': 'name',
  'spec.initContainers': 'name',
  'spec.volumes': 'name',
  'spec.template.spec.containers': 'name',
  'spec.template.spec.volumes': 'name',
  'metadata.ownerReferences': 'uid',
};
/** Primitive lists that merge as sets. */
const SET_LISTS = new Set(['metadata.finalizers']);

function strategicMerge(target: Json, patch: JsonObject, path: string[]): Json {
  if (patch.$patch === 'replace') {
    const { $patch: _, ...rest } = patch;
    return rest;
  }
  if (patch.$patch === 'delete') return undefined;
  const out: JsonObject = isObject(target) ? { ...target } : {};
  for (const [k, v] of Object.entries(patch)) {
    if (k.startsWith('$deleteFromPrimitiveList/')) {
      const field = k.slice('$deleteFromPrimitiveList/'.length);
      const drop = Array.isArray(v) ? v : [];
      if (Array.isArray(out[field])) out[field] = (out[field] as Json[]).filter((x) => !drop.includes(x));
      continue;
    }
    if (k.startsWith('$')) continue;
    const fieldPath = [...path, k].join('.');
    if (v === null) delete out[k];
    else if (Array.isArray(v)) out[k] = mergeList(out[k], v, fieldPath);
    else if (isObject(v)) {
      const merged = strategicMerge(out[k], v, [...path, k]);
      if (merged === undefined) delete out[k];
      else out[k] = merged;
    } else out[k] = v;
  }
  return out;
}

function mergeList(current: Json, patch: Json[], fieldPath: string): Json[] {
  const existing = Array.isArray(current) ? [...current] : [];
  if (SET_LISTS.has(fieldPath)) return [...existing, ...patch.filter((x) => !existing.includes(x))];
  const key = MERGE_KEYS[fieldPath];
  if (!key) return deepCopy(patch);
  if (patch.some((p) => isObject(p) && p.$patch === 'replace' && Object.keys(p).length === 1)) {
    return patch.filter((p) => !(isObject(p) && p.$patch === 'replace'));
  }
  for (const item of patch) {
    if (!isObject(item)) throw badRequest(`strategic merge patch: ${fieldPath} items must be objects`);
    const at = existing.findIndex((e) => isObject(e) && e[key] === item[key]);
    if (item.$patch === 'delete') {
      if (at >= 0) existing.splice(at, 1);
      continue;
    }
    if (at >= 0) existing[at] = strategicMerge(existing[at], item, []) as Json;
    else existing.push(strategicMerge({}, item, []));
  }
  return existing;
}

interface JsonPatchOp {
  op: 'add' | 'remove' | 'replace' | 'move' | 'copy' | 'test';
  path: string;
  from?: string;
  value?: Json;
}

function pointer(path: string): string[] {
  if (path === '') return [];
  if (!path.startsWith('/')) throw badRequest(`json patch: path ${JSON.stringify(path)} must start with "/"`);
  return path
    .slice(1)
    .split('/')
    .map((s) => s.replaceAll('~1', '/').replaceAll('~0', '~'));
}

function parentOf(doc: Json, tokens: string[], op: string): { parent: Json; last: string } {
  let cur = doc;
  for (const t of tokens.slice(0, -1)) {
    const next = Array.isArray(cur) ? cur[Number(t)] : isObject(cur) ? cur[t] : undefined;
    if (next === undefined)
      throw new ApiError(422, 'Invalid', `json patch ${op}: path /${tokens.join('/')} does not exist`);
    cur = next;
  }
  return { parent: cur, last: tokens[tokens.length - 1] };
}

function getAt(doc: Json, path: string): Json {
  let cur = doc;
  for (const t of pointer(path)) {
    cur = Array.isArray(cur) ? cur[Number(t)] : isObject(cur) ? cur[t] : undefined;
    if (cur === undefined) throw new ApiError(422, 'Invalid', `json patch: path ${path} does not exist`);
  }
  return cur;
}

function removeAt(doc: Json, path: string): Json {
  const { parent, last } = parentOf(doc, pointer(path), 'remove');
  const old = getAt(doc, path);
  if (Array.isArray(parent)) parent.splice(Number(last), 1);
  else delete (parent as JsonObject)[last];
  return old;
}

function addAt(doc: Json, path: string, value: Json, replace: boolean): Json {
  const tokens = pointer(path);
  if (tokens.length === 0) return deepCopy(value);
  if (replace) getAt(doc, path);
  const { parent, last } = parentOf(doc, tokens, replace ? 'replace' : 'add');
  if (Array.isArray(parent)) {
    const i = last === '-' ? parent.length : Number(last);
    if (!Number.isInteger(i) || i < 0 || i > parent.length)
      throw new ApiError(422, 'Invalid', `json patch: index ${last} out of range at ${path}`);
    parent.splice(i, replace ? 1 : 0, deepCopy(value));
  } else if (isObject(parent)) parent[last] = deepCopy(value);
  else throw new ApiError(422, 'Invalid', `json patch: parent of ${path} is not an object or array`);
  return doc;
}

/** RFC 6902. */
export function applyJsonPatch(doc: Json, ops: Json): Json {
  if (!Array.isArray(ops)) throw badRequest('a json patch must be a JSON array of operations');
  for (const raw of ops as JsonPatchOp[]) {
    const { op, path, from, value } = raw;
    if (op === 'add') doc = addAt(doc, path, value, false);
    else if (op === 'replace') doc = addAt(doc, path, value, true);
    else if (op === 'remove') removeAt(doc, path);
    else if (op === 'move') doc = addAt(doc, path, removeAt(doc, from ?? ''), false);
    else if (op === 'copy') doc = addAt(doc, path, getAt(doc, from ?? ''), false);
    else if (op === 'test') {
      if (JSON.stringify(getAt(doc, path)) !== JSON.stringify(value)) {
        throw new ApiError(422, 'Invalid', `json patch test failed at ${path}`);
      }
    } else throw badRequest(`json patch: unknown op ${JSON.stringify(op)}`);
  }
  return doc;
}
