/**
 * A writer of the protocol buffers wire format: each helper returns one encoded field (tag and
 * value), and {@link message} joins fields into a message. Enough for documents the simulated API
 * server encodes (strings, booleans, nested and repeated messages); the counterpart of
 * wire-reader.ts.
 */

/** One encoded field, or nothing (a field left out). */
export type Encoded = Uint8Array | undefined;

function varint(value: number): Uint8Array {
  if (!Number.isSafeInteger(value) || value < 0) throw new Error(`varint out of range: ${value}`);
  const bytes: number[] = [];
  let v = value;
  while (v > 0x7f) {
    bytes.push((v % 0x80) | 0x80);
    v = Math.floor(v / 0x80);
  }
  bytes.push(v);
  return Uint8Array.from(bytes);
}

function tag(field: number, wire: 0 | 2): Uint8Array {
  return varint(field * 8 + wire);
}

/** The fields joined into one message body (left-out fields skipped). */
export function message(fields: readonly Encoded[]): Uint8Array {
  return Buffer.concat(fields.filter((f): f is Uint8Array => f !== undefined));
}

/** A length-delimited field holding `bytes` (a nested message, a string's UTF-8). */
export function bytesField(field: number, bytes: Uint8Array): Uint8Array {
  return Buffer.concat([tag(field, 2), varint(bytes.length), bytes]);
}

/** A nested message field. */
export function messageField(field: number, fields: readonly Encoded[]): Uint8Array {
  return bytesField(field, message(fields));
}

/** A string field; left out when `value` is undefined or empty (proto3's default). */
export function stringField(field: number, value: string | undefined): Encoded {
  return value ? bytesField(field, Buffer.from(value, 'utf8')) : undefined;
}

/** A repeated string field: one entry per value. */
export function stringsField(field: number, values: readonly string[] | undefined): Encoded {
  return values && values.length > 0
    ? message(values.map((v) => bytesField(field, Buffer.from(v, 'utf8'))))
    : undefined;
}

/**
 * A bool field. `always` writes false too (a member of a oneof, whose presence is its meaning);
 * otherwise false, proto3's default, is left out.
 */
export function boolField(field: number, value: boolean | undefined, always = false): Encoded {
  if (value === undefined || (!value && !always)) return undefined;
  return Buffer.concat([tag(field, 0), varint(value ? 1 : 0)]);
}
