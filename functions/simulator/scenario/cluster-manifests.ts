/**
 * Applies and deletes a scenario's manifests in the simulated cluster. Kinds the API server does
 * not serve yet (Karpenter's NodePool, EC2NodeClass, Provisioner; Multus NetworkAttachmentDefinitions)
 * get a permissive CustomResourceDefinition first, as installing their chart would.
 */

import { NODE_POOL_SCALE as KARPENTER_NODE_POOL_SCALE } from '../../core/install/karpenter-crds.js';
import type { ClusterStore } from '../kube/api/cluster-store.js';
import type { CrdScale, ResourceType } from '../kube/api/resource-registry.js';
import type { Manifest } from './load-scenario.js';

/**
 * The scale subresource of Karpenter's NodePool (v1.8 static capacity): `kubectl scale nodepool`
 * sets `spec.replicas`; the count is the pool's node count.
 */
export const NODE_POOL_SCALE: CrdScale = KARPENTER_NODE_POOL_SCALE;

const CRD_API = 'apiextensions.k8s.io/v1';

interface CrdVersions {
  readonly spec: { readonly versions: readonly { readonly name: string }[] };
}

/** The plural resource name Kubernetes conventions give a kind (`EC2NodeClass` -> `ec2nodeclasses`). */
export function pluralOf(kind: string): string {
  const lower = kind.toLowerCase();
  if (/(s|x|z|ch|sh)$/.test(lower)) return `${lower}es`;
  if (/[^aeiou]y$/.test(lower)) return `${lower.slice(0, -1)}ies`;
  return `${lower}s`;
}

function served(store: ClusterStore, apiVersion: string, kind: string): ResourceType | undefined {
  try {
    return store.api.typeOf(apiVersion, kind);
  } catch {
    return undefined;
  }
}

/** Creates a CRD for every (group, kind) among `manifests` that the API server does not serve. */
export async function ensureKinds(store: ClusterStore, manifests: readonly Manifest[]): Promise<void> {
  const missing = new Map<
    string,
    { group: string; kind: string; versions: Set<string>; namespaced: boolean }
  >();
  for (const m of manifests) {
    if (served(store, m.apiVersion, m.kind)) continue;
    const [group, version] = m.apiVersion.includes('/') ? m.apiVersion.split('/') : ['', m.apiVersion];
    if (group === '')
      throw new Error(`${m.kind}/${m.metadata.name}: unknown core kind ${m.apiVersion} ${m.kind}`);
    const key = `${group}/${m.kind}`;
    const entry = missing.get(key) ?? { group, kind: m.kind, versions: new Set(), namespaced: false };
    entry.versions.add(version);
    entry.namespaced ||= m.metadata.namespace !== undefined;
    missing.set(key, entry);
  }
  for (const crd of missing.values()) {
    const plural = pluralOf(crd.kind);
    const versions = [...crd.versions].sort();
    const existing = store.get(CRD_API, 'CustomResourceDefinition', `${plural}.${crd.group}`) as
      | (Manifest & CrdVersions)
      | undefined;
    if (existing) {
      // The kind is installed, without this version (a v1beta1 NodePool where joiner installed
      // Karpenter's v1 CRD): served as well, kept as written, as Karpenter's CRDs served both
      // versions during the v1 migration.
      await store.apply({
        ...existing,
        spec: {
          ...existing.spec,
          versions: [
            ...existing.spec.versions,
            ...versions.map((name) => ({
              name,
              served: true,
              storage: false,
              schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } },
              subresources: { status: {} },
            })),
          ],
        },
      });
      continue;
    }
    await store.create({
      apiVersion: 'apiextensions.k8s.io/v1',
      kind: 'CustomResourceDefinition',
      metadata: { name: `${plural}.${crd.group}` },
      spec: {
        group: crd.group,
        scope: crd.namespaced ? 'Namespaced' : 'Cluster',
        names: { plural, singular: crd.kind.toLowerCase(), kind: crd.kind },
        versions: versions.map((name, i) => ({
          name,
          served: true,
          storage: i === versions.length - 1,
          schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } },
          subresources: {
            status: {},
            ...(crd.group === 'karpenter.sh' && crd.kind === 'NodePool' ? { scale: NODE_POOL_SCALE } : {}),
          },
        })),
      },
    });
  }
}

/** Creates or replaces each manifest, in order, after ensuring its kind is served. */
export async function applyManifests(store: ClusterStore, manifests: readonly Manifest[]): Promise<void> {
  await ensureKinds(store, manifests);
  for (const m of manifests) {
    const type = served(store, m.apiVersion, m.kind);
    const namespace = type?.namespaced ? (m.metadata.namespace ?? 'default') : undefined;
    try {
      await store.apply({ ...m, metadata: { ...m.metadata, namespace } });
    } catch (error) {
      throw new Error(`applying ${m.kind}/${m.metadata.name}: ${(error as Error).message}`);
    }
  }
}

/** Deletes each manifest's object (missing objects are ignored). */
export async function deleteManifests(store: ClusterStore, manifests: readonly Manifest[]): Promise<void> {
  for (const m of manifests) {
    const type = served(store, m.apiVersion, m.kind);
    if (!type) continue;
    const namespace = type.namespaced ? (m.metadata.namespace ?? 'default') : undefined;
    if (!store.get(m.apiVersion, m.kind, m.metadata.name, namespace)) continue;
    await store.delete(m.apiVersion, m.kind, m.metadata.name, namespace);
  }
}
