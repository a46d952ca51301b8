import * as z from 'zod';
import { quantity } from '../config/schema/common.js';

/** Loose metadata: a name is required, everything else is kept as written. */
export const objectMeta = z.looseObject({
  name: z.string().min(1, 'metadata.name must not be empty'),
  namespace: z.string().optional(),
  labels: z.record(z.string(), z.string()).optional(),
  annotations: z.record(z.string(), z.string()).optional(),
});

const resources = z.looseObject({
  requests: z.record(z.string(), quantity).optional(),
  limits: z.record(z.string(), quantity).optional(),
});

const container = z.looseObject({ name: z.string().min(1), resources: resources.optional() });

/** A pod spec: containers with valid resource quantities; other fields are kept as written. */
export const podSpec = z.looseObject({
  containers: z.array(container).min(1, 'a pod needs at least one container'),
  initContainers: z.array(container).optional(),
  overhead: z.record(z.string(), quantity).optional(),
  nodeName: z.string().optional(),
  nodeSelector: z.record(z.string(), z.string()).optional(),
  tolerations: z.array(z.looseObject({})).optional(),
});

const podTemplate = z.looseObject({ metadata: z.looseObject({}).optional(), spec: podSpec });

const pvcSpec = z.looseObject({ resources: resources.optional() });

/** The workload kinds joiner reads, keyed by kind. */
export const WORKLOAD_SCHEMAS = {
  Pod: z.looseObject({ metadata: objectMeta, spec: podSpec }),
  Deployment: z.looseObject({
    metadata: objectMeta,
    spec: z.looseObject({ replicas: z.number().int().min(0).optional(), template: podTemplate }),
  }),
  ReplicaSet: z.looseObject({
    metadata: objectMeta,
    spec: z.looseObject({ replicas: z.number().int().min(0).optional(), template: podTemplate }),
  }),
  StatefulSet: z.looseObject({
    metadata: objectMeta,
    spec: z.looseObject({
      replicas: z.number().int().min(0).optional(),
      template: podTemplate,
      volumeClaimTemplates: z.array(z.looseObject({ metadata: objectMeta, spec: pvcSpec })).optional(),
    }),
  }),
  Job: z.looseObject({
    metadata: objectMeta,
    spec: z.looseObject({
      parallelism: z.number().int().min(0).optional(),
      completions: z.number().int().min(0).optional(),
      template: podTemplate,
    }),
  }),
  DaemonSet: z.looseObject({ metadata: objectMeta, spec: z.looseObject({ template: podTemplate }) }),
  PersistentVolume: z.looseObject({
    metadata: objectMeta,
    spec: z.looseObject({ capacity: z.record(z.string(), quantity).optional() }),
  }),
  PersistentVolumeClaim: z.looseObject({ metadata: objectMeta, spec: pvcSpec }),
  PodDisruptionBudget: z.looseObject({
    metadata: objectMeta,
    spec: z.looseObject({
      minAvailable: z.union([z.number().int(), z.string().regex(/^\d+%$/)]).optional(),
      maxUnavailable: z.union([z.number().int(), z.string().regex(/^\d+%$/)]).optional(),
    }),
  }),
  StorageClass: z.looseObject({
    metadata: objectMeta,
    provisioner: z.string().min(1),
    volumeBindingMode: z.enum(['Immediate', 'WaitForFirstConsumer']).optional(),
  }),
  RuntimeClass: z.looseObject({
    metadata: objectMeta,
    handler: z.string().min(1),
    overhead: z.looseObject({ podFixed: z.record(z.string(), quantity).optional() }).optional(),
  }),
  Node: z.looseObject({
    metadata: objectMeta,
    spec: z.looseObject({}).optional(),
    status: z
      .looseObject({
        capacity: z.record(z.string(), quantity).optional(),
        allocatable: z.record(z.string(), quantity).optional(),
      })
      .optional(),
  }),
} as const;

/** A workload kind joiner reads. */
export type WorkloadKind = keyof typeof WORKLOAD_SCHEMAS;

/** API groups of the Kubernetes built-in kinds above. */
export const WORKLOAD_GROUPS = new Set([
  '',
  'apps',
  'batch',
  'policy',
  'extensions',
  'storage.k8s.io',
  'node.k8s.io',
]);
