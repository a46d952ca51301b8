/**
 * The resource types the simulated API server serves: the built-in ones joiner and its tests use,
 * plus the custom resources registered by CustomResourceDefinitions.
 */

/** One served resource type (one group/version/plural). */
export interface ResourceType {
  /** '' for the core group. */
  readonly group: string;
  readonly version: string;
  readonly plural: string;
  readonly singular: string;
  readonly kind: string;
  readonly namespaced: boolean;
  /** Served subresources, e.g. `status`, `binding`, `eviction`, `scale`. */
  readonly subresources: readonly string[];
  /** A custom resource's scale subresource: where its replicas (and their count) are. */
  readonly scale?: CrdScale;
  readonly shortNames?: readonly string[];
  /** Categories it belongs to (`kubectl get all`, `kubectl get karpenter`). */
  readonly categories?: readonly string[];
}

/** `v1` or `group/version`. */
export function apiVersionOf(type: Pick<ResourceType, 'group' | 'version'>): string {
  return type.group ? `${type.group}/${type.version}` : type.version;
}

/** The storage key of a type: every version of a group/plural shares one store. */
export function storageKey(type: Pick<ResourceType, 'group' | 'plural'>): string {
  return `${type.group}/${type.plural}`;
}

const builtin = (
  group: string,
  version: string,
  kind: string,
  plural: string,
  namespaced: boolean,
  subresources: string[] = [],
  shortNames?: string[],
): ResourceType => ({
  group,
  version,
  kind,
  plural,
  singular: kind.toLowerCase(),
  namespaced,
  subresources,
  shortNames,
});

const BUILTIN: readonly ResourceType[] = [
  builtin('', 'v1', 'Pod', 'pods', true, ['status', 'binding', 'eviction'], ['po']),
  builtin('', 'v1', 'Binding', 'bindings', true),
  builtin('', 'v1', 'Node', 'nodes', false, ['status'], ['no']),
  builtin('', 'v1', 'Namespace', 'namespaces', false, ['status'], ['ns']),
  builtin('', 'v1', 'PersistentVolume', 'persistentvolumes', false, ['status'], ['pv']),
  builtin('', 'v1', 'PersistentVolumeClaim', 'persistentvolumeclaims', true, ['status'], ['pvc']),
  builtin('', 'v1', 'Event', 'events', true, [], ['ev']),
  builtin('', 'v1', 'ConfigMap', 'configmaps', true, [], ['cm']),
  builtin('', 'v1', 'Secret', 'secrets', true),
  builtin('', 'v1', 'Service', 'services', true, ['status'], ['svc']),
  builtin('', 'v1', 'ServiceAccount', 'serviceaccounts', true, [], ['sa']),
  builtin('apps', 'v1', 'Deployment', 'deployments', true, ['status', 'scale'], ['deploy']),
  builtin('apps', 'v1', 'ReplicaSet', 'replicasets', true, ['status', 'scale'], ['rs']),
  builtin('apps', 'v1', 'DaemonSet', 'daemonsets', true, ['status'], ['ds']),
  builtin('apps', 'v1', 'StatefulSet', 'statefulsets', true, ['status', 'scale'], ['sts']),
  builtin('policy', 'v1', 'PodDisruptionBudget', 'poddisruptionbudgets', true, ['status'], ['pdb']),
  builtin('events.k8s.io', 'v1', 'Event', 'events', true, [], ['ev']),
  builtin('coordination.k8s.io', 'v1', 'Lease', 'leases', true),
  builtin(
    'apiextensions.k8s.io',
    'v1',
    'CustomResourceDefinition',
    'customresourcedefinitions',
    false,
    ['status'],
    ['crd', 'crds'],
  ),
  builtin(
    'admissionregistration.k8s.io',
    'v1',
    'ValidatingWebhookConfiguration',
    'validatingwebhookconfigurations',
    false,
  ),
  builtin(
    'admissionregistration.k8s.io',
    'v1',
    'MutatingWebhookConfiguration',
    'mutatingwebhookconfigurations',
    false,
  ),
  builtin('rbac.authorization.k8s.io', 'v1', 'Role', 'roles', true),
  builtin('rbac.authorization.k8s.io', 'v1', 'RoleBinding', 'rolebindings', true),
  builtin('rbac.authorization.k8s.io', 'v1', 'ClusterRole', 'clusterroles', false),
  builtin('rbac.authorization.k8s.io', 'v1', 'ClusterRoleBinding', 'clusterrolebindings', false),
  builtin('storage.k8s.io', 'v1', 'StorageClass', 'storageclasses', false, [], ['sc']),
  builtin('storage.k8s.io', 'v1', 'CSINode', 'csinodes', false),
  builtin('node.k8s.io', 'v1', 'RuntimeClass', 'runtimeclasses', false),
];

/** The registry of served types; CRDs add and remove entries at run time. */
export class ResourceRegistry {
  private readonly types: ResourceType[] = [...BUILTIN];

  /** Every served type. */
  all(): readonly ResourceType[] {
    return this.types;
  }

  /** The type served at `group/version/plural`, if any. */
  byPath(group: string, version: string, plural: string): ResourceType | undefined {
    return this.types.find((t) => t.group === group && t.version === version && t.plural === plural);
  }

  /** The type of objects with this `apiVersion` and `kind`, if served. */
  byKind(apiVersion: string, kind: string): ResourceType | undefined {
    const [group, version] = apiVersion.includes('/') ? apiVersion.split('/') : ['', apiVersion];
    return this.types.find((t) => t.group === group && t.version === version && t.kind === kind);
  }

  /** The served group/versions, core first. */
  groupVersions(): { group: string; versions: string[] }[] {
    const groups = new Map<string, string[]>();
    for (const t of this.types) {
      const versions = groups.get(t.group) ?? [];
      if (!versions.includes(t.version)) versions.push(t.version);
      groups.set(t.group, versions);
    }
    return [...groups].map(([group, versions]) => ({ group, versions }));
  }

  /** Serves (or re-serves) the versions a CRD declares; returns the types it now provides. */
  registerCrd(crd: CrdLike): ResourceType[] {
    this.unregisterCrd(crd);
    const { group, names, scope, versions } = crd.spec;
    const added = versions
      .filter((v) => v.served !== false)
      .map(
        (v): ResourceType => ({
          group,
          version: v.name,
          plural: names.plural,
          singular: names.singular ?? names.kind.toLowerCase(),
          kind: names.kind,
          namespaced: scope === 'Namespaced',
          subresources: [
            ...(v.subresources?.status !== undefined ? ['status'] : []),
            ...(v.subresources?.scale !== undefined ? ['scale'] : []),
          ],
          ...(v.subresources?.scale ? { scale: v.subresources.scale } : {}),
          shortNames: names.shortNames,
          categories: names.categories,
        }),
      );
    this.types.push(...added);
    return added;
  }

  /** Stops serving the types a CRD declared. */
  unregisterCrd(crd: CrdLike): void {
    const { group, names } = crd.spec;
    for (let i = this.types.length - 1; i >= 0; i--) {
      const t = this.types[i];
      if (t.group === group && t.plural === names.plural && !BUILTIN.includes(t)) this.types.splice(i, 1);
    }
  }
}

/** A CRD's `subresources.scale` (JSON paths such as `.spec.replicas`). */
export interface CrdScale {
  readonly specReplicasPath: string;
  readonly statusReplicasPath: string;
  readonly labelSelectorPath?: string;
}

/** The fields of a CustomResourceDefinition the registry reads. */
export interface CrdLike {
  readonly spec: {
    readonly group: string;
    readonly scope: 'Namespaced' | 'Cluster';
    readonly names: {
      plural: string;
      singular?: string;
      kind: string;
      shortNames?: string[];
      categories?: string[];
    };
    readonly versions: readonly {
      name: string;
      served?: boolean;
      subresources?: { status?: unknown; scale?: CrdScale };
    }[];
  };
}
