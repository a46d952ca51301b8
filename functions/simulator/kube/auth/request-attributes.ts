/**
 * What a REST request asks to do, read from its method and URL alone, the way the API server's
 * RequestInfo does before any handler runs: so a request for a resource that is not served is
 * still authorized first (403 before 404, as a real API server answers).
 */
import type { RequestAttributes } from './rbac-authorizer.js';

/** Subresources of a namespace, which stay requests on the namespace itself. */
const NAMESPACE_SUBRESOURCES = new Set(['status', 'finalize']);

const WRITE_VERBS: Readonly<Record<string, string>> = {
  POST: 'create',
  PUT: 'update',
  PATCH: 'patch',
};

/** The attributes RBAC decides on: verb, API group, resource/subresource, namespace and name. */
export function requestAttributes(method: string, url: URL): RequestAttributes {
  const segs = url.pathname
    .split('/')
    .filter((s) => s !== '')
    .map(decodeURIComponent);
  const verb = method.toUpperCase();
  const prefixLength = segs[0] === 'api' ? 2 : segs[0] === 'apis' ? 3 : 0;
  if (prefixLength === 0 || segs.length <= prefixLength)
    return { kind: 'nonResource', verb: nonResourceVerb(verb), path: url.pathname };
  const apiGroup = segs[0] === 'api' ? '' : segs[1];
  let parts = segs.slice(prefixLength);
  let namespace = '';
  if (parts[0] === 'namespaces' && parts.length > 1) {
    namespace = parts[1];
    if (parts.length > 2 && !NAMESPACE_SUBRESOURCES.has(parts[2])) parts = parts.slice(2);
  }
  const [resource, name = '', subresource = ''] = parts;
  return {
    kind: 'resource',
    verb: resourceVerb(verb, name, url.searchParams),
    apiGroup,
    resource,
    subresource,
    namespace,
    name,
  };
}

function resourceVerb(method: string, name: string, query: URLSearchParams): string {
  if (method === 'GET' || method === 'HEAD') {
    if (name) return 'get';
    const watch = query.get('watch');
    return watch === 'true' || watch === '1' ? 'watch' : 'list';
  }
  if (method === 'DELETE') return name ? 'delete' : 'deletecollection';
  return WRITE_VERBS[method] ?? method.toLowerCase();
}

/** Non-resource requests are authorized with the lower-cased HTTP method (`get`, `post`...). */
function nonResourceVerb(method: string): string {
  return method === 'HEAD' ? 'get' : method.toLowerCase();
}
