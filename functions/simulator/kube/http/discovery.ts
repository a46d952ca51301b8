/**
 * Discovery documents (`/api`, `/apis`, `/api/v1`, `/apis/{group}/{version}`, `/version`) so that
 * clients such as `KubernetesObjectApi` can map kinds to resources.
 */
import type { ResourceRegistry, ResourceType } from '../api/resource-registry.js';
import { discoveryOrder } from './discovery-order.js';

const VERBS_MAIN = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'];

/** The built-in resources of the `all` category, as the real API server lists them. */
const ALL_CATEGORY = new Set([
  '/pods',
  '/services',
  'apps/deployments',
  'apps/replicasets',
  'apps/daemonsets',
  'apps/statefulsets',
]);

function categoriesOf(t: ResourceType): readonly string[] | undefined {
  return t.categories ?? (ALL_CATEGORY.has(`${t.group}/${t.plural}`) ? ['all'] : undefined);
}

/** `/api`. */
export function coreVersions(): Record<string, unknown> {
  return {
    kind: 'APIVersions',
    versions: ['v1'],
    serverAddressByClientCIDRs: [{ clientCIDR: '0.0.0.0/0', serverAddress: '127.0.0.1' }],
  };
}

function groupEntry(group: string, versions: string[]): Record<string, unknown> {
  const list = versions.map((v) => ({ groupVersion: `${group}/${v}`, version: v }));
  return { name: group, versions: list, preferredVersion: list[0] };
}

/** `/apis`, in a real API server's order (see discovery-order.ts). */
export function groupList(registry: ResourceRegistry): Record<string, unknown> {
  const groups = discoveryOrder(registry.groupVersions().filter((g) => g.group !== '')).map((g) =>
    groupEntry(g.group, g.versions),
  );
  return { kind: 'APIGroupList', apiVersion: 'v1', groups };
}

/** `/apis/{group}`, or undefined when the group is not served. */
export function group(registry: ResourceRegistry, name: string): Record<string, unknown> | undefined {
  const g = discoveryOrder(registry.groupVersions()).find((x) => x.group === name);
  return g && { kind: 'APIGroup', apiVersion: 'v1', ...groupEntry(g.group, g.versions) };
}

/** `/api/v1` or `/apis/{group}/{version}`, or undefined when not served. */
export function resourceList(
  registry: ResourceRegistry,
  groupName: string,
  version: string,
): Record<string, unknown> | undefined {
  const types = registry.all().filter((t) => t.group === groupName && t.version === version);
  if (types.length === 0) return undefined;
  const resources = types.flatMap((t) => [
    {
      name: t.plural,
      singularName: t.singular,
      namespaced: t.namespaced,
      kind: t.kind,
      verbs: VERBS_MAIN,
      ...(t.shortNames ? { shortNames: t.shortNames } : {}),
      ...(categoriesOf(t) ? { categories: categoriesOf(t) } : {}),
    },
    ...t.subresources.map((s) => ({
      name: `${t.plural}/${s}`,
      singularName: '',
      namespaced: t.namespaced,
      kind: s === 'scale' ? 'Scale' : s === 'binding' ? 'Binding' : s === 'eviction' ? 'Eviction' : t.kind,
      verbs: s === 'binding' || s === 'eviction' ? ['create'] : ['get', 'patch', 'update'],
    })),
  ]);
  return {
    kind: 'APIResourceList',
    apiVersion: 'v1',
    groupVersion: groupName ? `${groupName}/${version}` : version,
    resources,
  };
}

/** `/version`. */
export function versionInfo(): Record<string, unknown> {
  return {
    major: '1',
    minor: '32',
    gitVersion: 'v1.32.0-joiner-sim',
    gitCommit: '0000000000000000000000000000000000000000',
    gitTreeState: 'clean',
    buildDate: '2026-01-01T00:00:00Z',
    goVersion: 'go1.23',
    compiler: 'gc',
    platform: 'linux/amd64',
  };
}
