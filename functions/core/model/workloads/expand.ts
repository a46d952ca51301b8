import type { ObjectMeta, PersistentVolumeClaim, Pod, PodTemplate, Volume } from '../kube-objects.js';

/** The namespace objects without one are placed in. */
export const DEFAULT_NAMESPACE = 'default';

/** A controller (Deployment, ReplicaSet, StatefulSet, Job) as read from a document. */
export interface Controller {
  readonly apiVersion: string;
  readonly kind: string;
  readonly metadata: ObjectMeta;
  readonly template: PodTemplate;
}

function podFor(owner: Controller, index: number, volumes?: Volume[]): Pod {
  const namespace = owner.metadata.namespace ?? DEFAULT_NAMESPACE;
  const spec = structuredClone(owner.template.spec);
  if (volumes !== undefined) spec.volumes = [...(spec.volumes ?? []), ...volumes];
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name: `${owner.metadata.name}-${index}`,
      namespace,
      labels: { ...(owner.template.metadata?.labels ?? {}) },
      annotations: { ...(owner.template.metadata?.annotations ?? {}) },
      ownerReferences: [
        { apiVersion: owner.apiVersion, kind: owner.kind, name: owner.metadata.name, controller: true },
      ],
    },
    spec,
    status: { phase: spec.nodeName === undefined ? 'Pending' : 'Running' },
  };
}

/** Expands a Deployment / ReplicaSet / Job into `count` pods named `<name>-<index>`. */
export function expandPods(owner: Controller, count: number): Pod[] {
  return Array.from({ length: count }, (_, i) => podFor(owner, i));
}

/**
 * Expands a StatefulSet into pods `<name>-<index>` and, per volumeClaimTemplate, the claims
 * `<template>-<name>-<index>` the pods mount (as the StatefulSet controller names them).
 */
export function expandStatefulSet(
  owner: Controller,
  replicas: number,
  claimTemplates: readonly { metadata: ObjectMeta; spec: PersistentVolumeClaim['spec'] }[],
): { pods: Pod[]; claims: PersistentVolumeClaim[] } {
  const namespace = owner.metadata.namespace ?? DEFAULT_NAMESPACE;
  const pods: Pod[] = [];
  const claims: PersistentVolumeClaim[] = [];
  for (let i = 0; i < replicas; i++) {
    const volumes: Volume[] = [];
    for (const t of claimTemplates) {
      const claimName = `${t.metadata.name}-${owner.metadata.name}-${i}`;
      claims.push({
        apiVersion: 'v1',
        kind: 'PersistentVolumeClaim',
        metadata: { name: claimName, namespace, labels: { ...(owner.template.metadata?.labels ?? {}) } },
        spec: structuredClone(t.spec),
      });
      volumes.push({ name: t.metadata.name, persistentVolumeClaim: { claimName } });
    }
    pods.push(podFor(owner, i, volumes));
  }
  return { pods, claims };
}
