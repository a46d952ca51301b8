/**
 * The EC2 Query protocol's response side: a plain object becomes the `<ActionResponse>` document
 * in the 2016-11-15 namespace. Arrays become `<item>` lists, `undefined` members are left out,
 * dates become ISO timestamps.
 */
import { XMLBuilder } from 'fast-xml-parser';

export const EC2_NAMESPACE = 'http://ec2.amazonaws.com/doc/2016-11-15/';

/** A response body: XML element names (camelCase as EC2 writes them) to values. */
export type XmlValue = string | number | boolean | Date | undefined | null | XmlValue[] | XmlObject;
export interface XmlObject {
  [name: string]: XmlValue;
}

const builder = new XMLBuilder({
  ignoreAttributes: false,
  attributeNamePrefix: '@_',
  suppressEmptyNode: false,
});

/** Renders a successful response of `action`. */
export function successXml(action: string, requestId: string, body: XmlObject): string {
  const root = { '@_xmlns': EC2_NAMESPACE, requestId, ...(normalize(body) as Record<string, unknown>) };
  return `<?xml version="1.0" encoding="UTF-8"?>\n${builder.build({ [`${action}Response`]: root })}`;
}

/** Renders the EC2 error envelope. */
export function errorXml(code: string, message: string, requestId: string): string {
  const doc = { Response: { Errors: { Error: { Code: code, Message: message } }, RequestID: requestId } };
  return `<?xml version="1.0" encoding="UTF-8"?>\n${builder.build(doc)}`;
}

function normalize(value: XmlValue): unknown {
  if (value === undefined || value === null) return undefined;
  if (value instanceof Date) return value.toISOString();
  if (Array.isArray(value)) {
    const items = value.filter((v) => v !== undefined && v !== null).map(normalize);
    return items.length === 0 ? '' : { item: items };
  }
  if (typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [key, child] of Object.entries(value)) {
      const normalized = normalize(child);
      if (normalized !== undefined) out[key] = normalized;
    }
    return out;
  }
  return String(value);
}
