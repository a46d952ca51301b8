/**
 * Decodes a `application/vnd.kubernetes.protobuf` request body (the `k8s\0` envelope around a
 * runtime.Unknown holding the object) into the object's JSON form, for the kinds in
 * {@link DECODABLE_KINDS}. Anything else is 415 Unsupported Media Type with a message saying what
 * to send instead: the simulator never silently drops a field it does not know.
 */
import { ApiError } from '../api/api-error.js';
import { DECODABLE_KINDS, type FieldSpec, MESSAGES } from './schemas.js';
import { readFields, type WireField } from './wire-reader.js';

/** The content type of Kubernetes protobuf bodies. */
export const PROTOBUF_CONTENT_TYPE = 'application/vnd.kubernetes.protobuf';

const MAGIC = [0x6b, 0x38, 0x73, 0x00];
const text = new TextDecoder('utf-8', { fatal: true });

function unsupported(message: string): ApiError {
  return new ApiError(
    415,
    'UnsupportedMediaType',
    `${message}; the simulated API server decodes protobuf bodies only for ${Object.keys(DECODABLE_KINDS).join(', ')}: send JSON (kubectl apply -f)`,
  );
}

/** The JSON object of a protobuf body. */
export function decodeProtobufBody(body: Uint8Array): Record<string, unknown> {
  if (body.length < 4 || MAGIC.some((b, i) => body[i] !== b))
    throw unsupported('the body has no k8s protobuf envelope');
  let fields: WireField[];
  try {
    fields = readFields(body.subarray(4));
  } catch (error) {
    throw unsupported(`malformed protobuf: ${(error as Error).message}`);
  }
  const typeMeta = fields.find((f) => f.field === 1 && f.wire === 2);
  const raw = fields.find((f) => f.field === 2 && f.wire === 2);
  const meta = typeMeta && 'bytes' in typeMeta ? decodeMessage(typeMeta.bytes, 'TypeMeta') : {};
  const apiVersion = String(meta.apiVersion ?? '');
  const kind = String(meta.kind ?? '');
  const message = DECODABLE_KINDS[`${apiVersion}/${kind}`];
  if (!message) throw unsupported(`a protobuf ${apiVersion} ${kind || 'object'}`);
  const object = raw && 'bytes' in raw ? decodeMessage(raw.bytes, message) : {};
  return { apiVersion, kind, ...object };
}

function decodeMessage(bytes: Uint8Array, name: string): Record<string, unknown> {
  const specs = MESSAGES[name];
  const out: Record<string, unknown> = {};
  let fields: WireField[];
  try {
    fields = readFields(bytes);
  } catch (error) {
    throw unsupported(`malformed protobuf in ${name}: ${(error as Error).message}`);
  }
  for (const f of fields) {
    const spec = specs[f.field];
    if (!spec) throw unsupported(`field ${f.field} of ${name} is not one the simulator knows`);
    const value = decodeField(f, spec, name);
    if (value === undefined) continue;
    if ((spec.type === 'string' || spec.type === 'int' || spec.type === 'message') && spec.repeated) {
      out[spec.name] = [...((out[spec.name] as unknown[]) ?? []), value];
    } else if (spec.type === 'map') {
      out[spec.name] = { ...((out[spec.name] as object) ?? {}), ...(value as object) };
    } else out[spec.name] = value;
  }
  return out;
}

function decodeField(f: WireField, spec: FieldSpec, parent: string): unknown {
  const where = `${parent}.${spec.name}`;
  if (spec.type === 'ignored') return undefined;
  if (spec.type === 'int' || spec.type === 'bool') {
    if (f.wire !== 0) throw unsupported(`${where}: expected a varint`);
    if (spec.type === 'bool') return f.value !== 0n ? true : undefined;
    const n = Number(BigInt.asIntN(64, f.value));
    return n === 0 && !spec.keepZero ? undefined : n;
  }
  if (f.wire !== 2) throw unsupported(`${where}: expected a length-delimited field`);
  const bytes = f.bytes;
  switch (spec.type) {
    case 'string': {
      const s = text.decode(bytes);
      return s === '' && !spec.repeated ? undefined : s;
    }
    case 'message':
      return decodeMessage(bytes, spec.message);
    case 'time': {
      const t = decodeTime(bytes);
      return t === 0 ? undefined : new Date(t * 1000).toISOString().replace('.000Z', 'Z');
    }
    case 'map': {
      const entry = readFields(bytes);
      const key = entry.find((e) => e.field === 1 && e.wire === 2);
      const value = entry.find((e) => e.field === 2 && e.wire === 2);
      const k = key && 'bytes' in key ? text.decode(key.bytes) : '';
      if (!value || !('bytes' in value)) return { [k]: spec.value === 'string' ? '' : '0' };
      if (spec.value === 'string') return { [k]: text.decode(value.bytes) };
      const quantity = readFields(value.bytes).find((q) => q.field === 1 && q.wire === 2);
      return { [k]: quantity && 'bytes' in quantity ? text.decode(quantity.bytes) : '0' };
    }
  }
}

function decodeTime(bytes: Uint8Array): number {
  const seconds = readFields(bytes).find((f) => f.field === 1 && f.wire === 0);
  return seconds && 'value' in seconds ? Number(seconds.value) : 0;
}
