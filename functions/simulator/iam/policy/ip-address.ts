/**
 * IPv4 / IPv6 addresses and CIDR blocks for the IpAddress / NotIpAddress condition operators
 * (`aws:SourceIp`): a policy value is a CIDR block or a single address.
 */

interface Address {
  readonly bits: bigint;
  readonly width: 32 | 128;
}

function parseIpv4(text: string): Address | undefined {
  const octets = text.split('.');
  if (octets.length !== 4) return undefined;
  let bits = 0n;
  for (const o of octets) {
    if (!/^\d{1,3}$/.test(o) || Number(o) > 255) return undefined;
    bits = (bits << 8n) | BigInt(o);
  }
  return { bits, width: 32 };
}

function parseIpv6(text: string): Address | undefined {
  let body = text;
  // An embedded IPv4 tail (::ffff:10.0.0.1) becomes two groups.
  const lastColon = body.lastIndexOf(':');
  const tail = body.slice(lastColon + 1);
  if (tail.includes('.')) {
    const v4 = parseIpv4(tail);
    if (!v4) return undefined;
    body = `${body.slice(0, lastColon + 1)}${(v4.bits >> 16n).toString(16)}:${(v4.bits & 0xffffn).toString(16)}`;
  }
  const halves = body.split('::');
  if (halves.length > 2) return undefined;
  const head = halves[0] ? halves[0].split(':') : [];
  const rest = halves.length === 2 && halves[1] ? halves[1].split(':') : [];
  const missing = 8 - head.length - rest.length;
  if (halves.length === 1 ? missing !== 0 : missing < 1) return undefined;
  const groups = [...head, ...Array<string>(halves.length === 2 ? missing : 0).fill('0'), ...rest];
  let bits = 0n;
  for (const g of groups) {
    if (!/^[0-9a-fA-F]{1,4}$/.test(g)) return undefined;
    bits = (bits << 16n) | BigInt(`0x${g}`);
  }
  return { bits, width: 128 };
}

/** Parses an IPv4 or IPv6 address; undefined if it is neither. */
export function parseIp(text: string): Address | undefined {
  return text.includes(':') ? parseIpv6(text) : parseIpv4(text);
}

/** Whether `address` lies in `block` (`10.0.0.0/8`, `2001:db8::/32`, or one address). */
export function ipInBlock(address: string, block: string): boolean {
  const ip = parseIp(address.trim());
  const slash = block.indexOf('/');
  const net = parseIp((slash < 0 ? block : block.slice(0, slash)).trim());
  if (!ip || !net || ip.width !== net.width) return false;
  const prefix = slash < 0 ? net.width : Number(block.slice(slash + 1));
  if (!Number.isInteger(prefix) || prefix < 0 || prefix > net.width) return false;
  const shift = BigInt(net.width - prefix);
  return ip.bits >> shift === net.bits >> shift;
}
