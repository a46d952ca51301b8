/** The admission step between a request and storage (where validating webhooks are called). */
import type { KubeObject } from './object-store.js';
import type { ResourceType } from './resource-registry.js';

export type AdmissionOperation = 'CREATE' | 'UPDATE' | 'DELETE' | 'CONNECT';

/** What is being done, as the admission chain sees it. */
export interface AdmissionAttributes {
  readonly operation: AdmissionOperation;
  readonly type: ResourceType;
  /** '' for the main resource, else e.g. `status`, `binding`, `eviction`, `scale`. */
  readonly subresource: string;
  readonly namespace?: string;
  readonly name: string;
  /** The object (for subresources: the subresource object, e.g. the Binding or the Pod for status). */
  readonly object?: KubeObject;
  readonly oldObject?: KubeObject;
  readonly requestKind?: { group: string; version: string; kind: string };
  readonly userInfo: { username: string; groups?: string[] };
  readonly dryRun: boolean;
}

/** Admits or rejects (by throwing an ApiError) a request before it is stored. */
export type AdmissionHook = (attributes: AdmissionAttributes) => Promise<void>;
