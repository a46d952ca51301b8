/**
 * The EC2 Query protocol's response side: a plain object becomes the `<ActionResponse>` document
 * in the 2016-11-15 namespace. Arrays become `<item>` lists, `undefined` members are left out,
 * dates become ISO timestamps. The element writer also serves IAM's Query protocol (`<member>`
 * lists). Written directly (not through a generic XML builder) because
 * DescribeInstanceTypes pages are large and a generic builder made them several times slower.
 */
import type { ServerResponse } from 'node:http';

export const EC2_NAMESPACE = 'http://ec2.amazonaws.com/doc/2016-11-15/';

/** A response body: XML element names (camelCase as EC2 writes them) to values. */
export type XmlValue = string | number | boolean | Date | undefined | null | XmlValue[] | XmlObject;
export interface XmlObject {
  [name: string]: XmlValue;
}

/** The XML declaration every Query-protocol response starts with. */
export const XML_HEADER = '<?xml version="1.0" encoding="UTF-8"?>\n';

/** Renders a successful response of `action`. */
export function successXml(action: string, requestId: string, body: XmlObject): string {
  const parts: string[] = [
    XML_HEADER,
    `<${action}Response xmlns="${EC2_NAMESPACE}">`,
    xmlElement('requestId', requestId),
  ];
  for (const [name, value] of Object.entries(body)) writeXml(parts, name, value);
  parts.push(`</${action}Response>`);
  return parts.join('');
}

/** Renders the EC2 error envelope. */
export function errorXml(code: string, message: string, requestId: string): string {
  return `${XML_HEADER}<Response><Errors><Error>${xmlElement('Code', code)}${xmlElement('Message', message)}</Error></Errors>${xmlElement('RequestID', requestId)}</Response>`;
}

/** One element with escaped text. */
export function xmlElement(name: string, text: string): string {
  return `<${name}>${escapeXml(text)}</${name}>`;
}

/** Appends `value` as element `name`; array entries become `listItem` elements (EC2 `item`, IAM `member`). */
export function writeXml(parts: string[], name: string, value: XmlValue, listItem = 'item'): void {
  if (value === undefined || value === null) return;
  if (value instanceof Date) {
    parts.push(xmlElement(name, value.toISOString()));
  } else if (Array.isArray(value)) {
    parts.push(`<${name}>`);
    for (const item of value) writeXml(parts, listItem, item, listItem);
    parts.push(`</${name}>`);
  } else if (typeof value === 'object') {
    parts.push(`<${name}>`);
    for (const [child, childValue] of Object.entries(value)) writeXml(parts, child, childValue, listItem);
    parts.push(`</${name}>`);
  } else {
    parts.push(xmlElement(name, String(value)));
  }
}

/** Sends a Query-protocol XML response with its request id header. */
export function sendXml(res: ServerResponse, status: number, body: string, requestId: string): void {
  res.writeHead(status, {
    'content-type': 'text/xml;charset=UTF-8',
    'content-length': Buffer.byteLength(body),
    'x-amzn-requestid': requestId,
  });
  res.end(body);
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
