/** A resource type as the REST API addresses it. */
export interface ResourceType {
  /** `v1` (the core group) or `group/version`. */
  readonly apiVersion: string;
  /** The resource name in paths, e.g. `pods`, `nodepools`. */
  readonly plural: string;
}

/** Where in a resource type: a collection (all namespaces, or one), an object, or its subresource. */
export interface ResourceLocation {
  readonly namespace?: string;
  readonly name?: string;
  readonly subresource?: string;
}

/** The path of a group/version, also its discovery document: `/api/v1` or `/apis/{group}/{version}`. */
export function groupVersionPath(apiVersion: string): string {
  const parts = apiVersion.split('/');
  if (parts.length > 2 || parts.some((part) => part === ''))
    throw new Error(`apiVersion ${JSON.stringify(apiVersion)} is neither "v1" nor "group/version"`);
  return join([parts.length === 1 ? 'api' : 'apis', ...parts]);
}

/**
 * The REST path of a resource collection, object or subresource:
 * `/api/v1/namespaces/default/pods/web/eviction`, `/apis/apps/v1/daemonsets`...
 */
export function resourcePath(type: ResourceType, where: ResourceLocation = {}): string {
  const segments: string[] = [];
  if (where.namespace) segments.push('namespaces', where.namespace);
  segments.push(type.plural);
  if (where.name) segments.push(where.name);
  if (where.subresource) segments.push(where.subresource);
  return `${groupVersionPath(type.apiVersion)}${join(segments)}`;
}

function join(segments: readonly string[]): string {
  return `/${segments.map(encodeURIComponent).join('/')}`;
}
