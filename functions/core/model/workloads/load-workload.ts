import type { Diagnostic } from '../config/diagnostic.js';
import { documentLabel, formatPath } from '../config/diagnostic.js';
import type { ObjectMeta, PersistentVolumeClaim, PodTemplate } from '../kube-objects.js';
import type { DocumentSource } from '../node-pool.js';
import { DEFAULT_NAMESPACE, expandPods, expandStatefulSet } from './expand.js';
import type { WorkloadKind } from './schemas.js';
import { WORKLOAD_GROUPS, WORKLOAD_SCHEMAS } from './schemas.js';
import type { Workloads } from './workloads.js';

/** True when apiVersion/kind is a workload kind joiner reads (Pod, Deployment, ..., Node). */
export function isWorkloadKind(apiVersion: string, kind: string): kind is WorkloadKind {
  const group = apiVersion.includes('/') ? apiVersion.split('/')[0] : '';
  return WORKLOAD_GROUPS.has(group) && Object.hasOwn(WORKLOAD_SCHEMAS, kind);
}

interface Doc {
  apiVersion: string;
  kind: string;
  metadata: ObjectMeta;
  spec: Record<string, unknown> & { template?: PodTemplate; replicas?: number };
}

function withNamespace<T extends { metadata: ObjectMeta }>(o: T): T {
  return { ...o, metadata: { ...o.metadata, namespace: o.metadata.namespace ?? DEFAULT_NAMESPACE } };
}

function controller(doc: Doc) {
  return { apiVersion: doc.apiVersion, kind: doc.kind, metadata: doc.metadata, template: doc.spec.template! };
}

function jobCount(spec: { parallelism?: number; completions?: number }): number {
  const parallelism = spec.parallelism ?? 1;
  return spec.completions === undefined ? parallelism : Math.min(parallelism, spec.completions);
}

function addTo(into: Workloads, kind: WorkloadKind, doc: Doc): void {
  switch (kind) {
    case 'Pod': {
      const pod = withNamespace(doc as never as Workloads['pods'][number]);
      const phase = pod.spec.nodeName === undefined ? 'Pending' : 'Running';
      into.pods.push(pod.status === undefined ? { ...pod, status: { phase } } : pod);
      return;
    }
    case 'Deployment':
    case 'ReplicaSet':
      into.pods.push(...expandPods(controller(doc), doc.spec.replicas ?? 1));
      return;
    case 'Job':
      into.pods.push(
        ...expandPods(controller(doc), jobCount(doc.spec as { parallelism?: number; completions?: number })),
      );
      return;
    case 'StatefulSet': {
      const templates = (doc.spec.volumeClaimTemplates ?? []) as {
        metadata: ObjectMeta;
        spec: PersistentVolumeClaim['spec'];
      }[];
      const { pods, claims } = expandStatefulSet(controller(doc), doc.spec.replicas ?? 1, templates);
      into.pods.push(...pods);
      into.persistentVolumeClaims.push(...claims);
      return;
    }
    case 'DaemonSet':
      into.daemonSets.push(withNamespace(doc as never));
      return;
    case 'PersistentVolumeClaim':
      into.persistentVolumeClaims.push(withNamespace(doc as never));
      return;
    case 'PodDisruptionBudget':
      into.podDisruptionBudgets.push(withNamespace(doc as never));
      return;
    case 'PersistentVolume':
      into.persistentVolumes.push(doc as never);
      return;
    case 'StorageClass':
      into.storageClasses.push(doc as never);
      return;
    case 'RuntimeClass':
      into.runtimeClasses.push(doc as never);
      return;
    case 'Node':
      into.nodes.push(doc as never);
  }
}

/**
 * Validates one workload document (structure and every resource quantity) and adds its objects to
 * `into`. Returns the errors; on error nothing is added.
 */
export function loadWorkloadDocument(
  kind: WorkloadKind,
  object: unknown,
  source: DocumentSource,
  into: Workloads,
): Diagnostic[] {
  const parsed = WORKLOAD_SCHEMAS[kind].safeParse(object);
  if (!parsed.success) {
    return parsed.error.issues.map((issue) => ({
      severity: 'error',
      file: source.file,
      document: documentLabel(source),
      path: formatPath(issue.path),
      message: issue.message,
    }));
  }
  addTo(into, kind, structuredClone(object) as Doc);
  return [];
}
