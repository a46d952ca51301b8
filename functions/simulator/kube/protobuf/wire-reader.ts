/** A reader of the protocol buffers wire format (varints, length-delimited fields, fixed 32/64-bit). */

/** One field as it is on the wire. */
export type WireField =
  | { readonly field: number; readonly wire: 0; readonly value: bigint }
  | { readonly field: number; readonly wire: 2; readonly bytes: Uint8Array }
  | { readonly field: number; readonly wire: 1 | 5; readonly bytes: Uint8Array };

/** Splits a message into its fields, in order; throws on truncated or malformed input. */
export function readFields(buf: Uint8Array): WireField[] {
  const fields: WireField[] = [];
  let at = 0;
  const varint = (): bigint => {
    let result = 0n;
    let shift = 0n;
    for (;;) {
      if (at >= buf.length) throw new Error('truncated varint');
      const byte = buf[at++];
      result |= BigInt(byte & 0x7f) << shift;
      if ((byte & 0x80) === 0) return result;
      shift += 7n;
      if (shift > 63n) throw new Error('varint longer than 64 bits');
    }
  };
  const take = (n: number): Uint8Array => {
    if (at + n > buf.length) throw new Error('truncated field');
    const out = buf.subarray(at, at + n);
    at += n;
    return out;
  };
  while (at < buf.length) {
    const tag = varint();
    const field = Number(tag >> 3n);
    const wire = Number(tag & 7n);
    if (wire === 0) fields.push({ field, wire, value: varint() });
    else if (wire === 2) fields.push({ field, wire, bytes: take(Number(varint())) });
    else if (wire === 1) fields.push({ field, wire, bytes: take(8) });
    else if (wire === 5) fields.push({ field, wire, bytes: take(4) });
    else throw new Error(`unsupported wire type ${wire} (field ${field})`);
  }
  return fields;
}
