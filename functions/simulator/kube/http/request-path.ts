/** Parsing of Kubernetes REST paths into a resource request or a discovery request. */
import { notFound } from '../api/api-error.js';
import type { ResourceRegistry, ResourceType } from '../api/resource-registry.js';

/** A request for a resource collection, one object or a subresource. */
export interface ResourcePath {
  readonly kind: 'resource';
  readonly type: ResourceType;
  readonly namespace?: string;
  readonly name?: string;
  readonly subresource: string;
}

/** A discovery request. */
export interface DiscoveryPath {
  readonly kind: 'discovery';
  readonly what: 'api' | 'apis' | 'group' | 'resources' | 'version' | 'health';
  readonly group?: string;
  readonly version?: string;
}

/** Parses a URL path; throws 404 for unknown groups, versions or resources. */
export function parseRequestPath(registry: ResourceRegistry, pathname: string): ResourcePath | DiscoveryPath {
  const segs = pathname
    .split('/')
    .filter((s) => s !== '')
    .map(decodeURIComponent);
  if (segs[0] === 'version') return { kind: 'discovery', what: 'version' };
  if (['healthz', 'readyz', 'livez'].includes(segs[0])) return { kind: 'discovery', what: 'health' };
  let group: string;
  let version: string | undefined;
  let rest: string[];
  if (segs[0] === 'api') {
    if (segs.length === 1) return { kind: 'discovery', what: 'api' };
    [group, version, rest] = ['', segs[1], segs.slice(2)];
  } else if (segs[0] === 'apis') {
    if (segs.length === 1) return { kind: 'discovery', what: 'apis' };
    if (segs.length === 2) return { kind: 'discovery', what: 'group', group: segs[1] };
    [group, version, rest] = [segs[1], segs[2], segs.slice(3)];
  } else throw notFound('paths', '', pathname);
  if (rest.length === 0) return { kind: 'discovery', what: 'resources', group, version };
  const typeAt = (plural: string): ResourceType | undefined => registry.byPath(group, version!, plural);
  if (rest[0] === 'namespaces' && rest.length >= 3) {
    const type = typeAt(rest[2]);
    if (type?.namespaced) return resource(type, rest[1], rest[3], rest[4], pathname);
  }
  const type = typeAt(rest[0]);
  if (!type)
    throw notFound(
      'resources',
      group,
      `${rest[0]} (the server could not find the requested resource in ${group ? `${group}/` : ''}${version})`,
    );
  return resource(type, undefined, rest[1], rest[2], pathname);
}

function resource(
  type: ResourceType,
  namespace: string | undefined,
  name: string | undefined,
  sub: string | undefined,
  pathname: string,
): ResourcePath {
  const subresource = sub ?? '';
  if (subresource && !type.subresources.includes(subresource))
    throw notFound(`${type.plural}/${subresource}`, type.group, pathname);
  return { kind: 'resource', type, namespace, name, subresource };
}
