/**
 * The EC2 Query protocol's response side: a plain object becomes the `<ActionResponse>` document
 * in the 2016-11-15 namespace. Arrays become `<item>` lists, `undefined` members are left out,
 * dates become ISO timestamps. Written directly (not through a generic XML builder) because
 * DescribeInstanceTypes pages are large and a generic builder made them several times slower.
 */

export const EC2_NAMESPACE = 'http://ec2.amazonaws.com/doc/2016-11-15/';

/** A response body: XML element names (camelCase as EC2 writes them) to values. */
export type XmlValue = string | number | boolean | Date | undefined | null | XmlValue[] | XmlObject;
export interface XmlObject {
  [name: string]: XmlValue;
}

const HEADER = '<?xml version="1.0" encoding="UTF-8"?>\n';

/** Renders a successful response of `action`. */
export function successXml(action: string, requestId: string, body: XmlObject): string {
  const parts: string[] = [
    HEADER,
    `<${action}Response xmlns="${EC2_NAMESPACE}">`,
    element('requestId', requestId),
  ];
  for (const [name, value] of Object.entries(body)) write(parts, name, value);
  parts.push(`</${action}Response>`);
  return parts.join('');
}

/** Renders the EC2 error envelope. */
export function errorXml(code: string, message: string, requestId: string): string {
  return `${HEADER}<Response><Errors><Error>${element('Code', code)}${element('Message', message)}</Error></Errors>${element('RequestID', requestId)}</Response>`;
}

function element(name: string, text: string): string {
  return `<${name}>${escapeXml(text)}</${name}>`;
}

function write(parts: string[], name: string, value: XmlValue): void {
  if (value === undefined || value === null) return;
  if (value instanceof Date) {
    parts.push(element(name, value.toISOString()));
  } else if (Array.isArray(value)) {
    parts.push(`<${name}>`);
    for (const item of value) write(parts, 'item', item);
    parts.push(`</${name}>`);
  } else if (typeof value === 'object') {
    parts.push(`<${name}>`);
    for (const [child, childValue] of Object.entries(value)) write(parts, child, childValue);
    parts.push(`</${name}>`);
  } else {
    parts.push(element(name, String(value)));
  }
}

const ENTITIES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&apos;',
};

function escapeXml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ENTITIES[c]);
}
