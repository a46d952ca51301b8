import type { KubernetesObject } from '@kubernetes/client-node';
import type { KubeManifest } from '../../core/install/kube-manifest.js';
import type { Log } from '../../core/ports/log.js';
import type { KubeClientSource } from './kube-clients.js';
import { kubeError, statusOf } from './kube-errors.js';

/** What the installer does to a cluster: create-or-replace and delete arbitrary manifests. */
export interface ManifestApi {
  /** Creates the object, or replaces the existing one; returns `created` or `updated`. */
  apply(manifest: KubeManifest): Promise<'created' | 'updated'>;
  /** Deletes the object; returns false when it did not exist (404, including a kind not installed). */
  delete(manifest: KubeManifest): Promise<boolean>;
}

/** Options of {@link KubeManifestApplier}. */
export interface ManifestApplierOptions {
  readonly log: Log;
  /** Attempts for a kind the API server does not serve yet (a CRD just created). Default 10. */
  readonly attempts?: number;
  /** Wait between those attempts in ms (default 1000). */
  readonly retryDelayMs?: number;
  readonly sleep?: (ms: number) => Promise<void>;
}

const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Applies manifests the way `kubectl apply` would for joiner's needs: create, or replace with the
 * live object's resourceVersion (so a concurrent change is a clear 409, not a silent overwrite).
 * Custom resources whose CRD was just created are retried until the API server serves the kind.
 */
export class KubeManifestApplier implements ManifestApi {
  constructor(
    private readonly clients: KubeClientSource,
    private readonly options: ManifestApplierOptions,
  ) {}

  async apply(manifest: KubeManifest): Promise<'created' | 'updated'> {
    const attempts = this.options.attempts ?? 10;
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.applyOnce(manifest);
      } catch (error) {
        if (!isUnservedKind(error) || attempt >= attempts)
          throw kubeError(`applying ${describe(manifest)}`, error);
        this.options.log.info('kind not served yet, waiting for its CRD', {
          object: describe(manifest),
          attempt,
        });
        await (this.options.sleep ?? defaultSleep)(this.options.retryDelayMs ?? 1000);
      }
    }
  }

  private async applyOnce(manifest: KubeManifest): Promise<'created' | 'updated'> {
    const { objects } = await this.clients();
    const spec = manifest as unknown as KubernetesObject;
    const existing = await objects.read(header(manifest)).catch((error: unknown) => {
      if (statusOf(error) === 404 && !isUnservedKind(error)) return undefined;
      throw error;
    });
    if (!existing) {
      await objects.create(spec, undefined, undefined, 'joiner');
      return 'created';
    }
    const resourceVersion = existing.metadata?.resourceVersion;
    const replacement = {
      ...manifest,
      metadata: { ...manifest.metadata, ...(resourceVersion ? { resourceVersion } : {}) },
    };
    await objects.replace(replacement as unknown as KubernetesObject, undefined, undefined, 'joiner');
    return 'updated';
  }

  async delete(manifest: KubeManifest): Promise<boolean> {
    const { objects } = await this.clients();
    try {
      await objects.delete(header(manifest) as KubernetesObject);
      return true;
    } catch (error) {
      if (statusOf(error) === 404 || isUnservedKind(error)) return false;
      throw kubeError(`deleting ${describe(manifest)}`, error);
    }
  }
}

function header(manifest: KubeManifest) {
  const { name, namespace } = manifest.metadata;
  return {
    apiVersion: manifest.apiVersion,
    kind: manifest.kind,
    metadata: { name, ...(namespace ? { namespace } : {}) },
  };
}

/** `Kind name` (with the namespace when namespaced) for messages. */
export function describe(manifest: KubeManifest): string {
  const { name, namespace } = manifest.metadata;
  return `${manifest.kind} ${namespace ? `${namespace}/` : ''}${name}`;
}

/**
 * True when the API server does not serve the kind at all (discovery found no such resource, or
 * the group/version is missing), as opposed to a missing object.
 */
function isUnservedKind(error: unknown): boolean {
  const message = error instanceof Error ? error.message : String(error);
  if (
    /Unrecognized API version and kind|failed to fetch resource metadata|resource .* not found/i.test(message)
  ) {
    return true;
  }
  const body = (error as { body?: unknown }).body;
  const text = typeof body === 'string' ? body : JSON.stringify(body ?? '');
  return statusOf(error) === 404 && /the server could not find the requested resource/i.test(text);
}
