import type { KubeManifest } from '../../core/install/kube-manifest.js';
import type { Log } from '../../core/ports/log.js';
import type { KubeClientSource } from './kube-clients.js';
import { KubeDiscovery, UnservedKindError } from './kube-discovery.js';
import { isNotFound, kubeError } from './kube-errors.js';
import { resourcePath } from './kube-paths.js';
import type { KubeTransport } from './kube-transport.js';

/** What the installer does to a cluster: create-or-replace and delete arbitrary manifests. */
export interface ManifestApi {
  /** Creates the object, or replaces the existing one; returns `created` or `updated`. */
  apply(manifest: KubeManifest): Promise<'created' | 'updated'>;
  /** Deletes the object; returns false when it did not exist (404, including a kind not installed). */
  delete(manifest: KubeManifest): Promise<boolean>;
  /** The live object of the manifest's kind and name, or undefined when there is none. */
  get(manifest: KubeManifest): Promise<KubeManifest | undefined>;
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

/** The field manager joiner's writes are recorded under. */
const FIELD_MANAGER = { fieldManager: 'joiner' };

/**
 * Applies manifests the way `kubectl apply` would for joiner's needs: create, or replace with the
 * live object's resourceVersion (so a concurrent change is a clear 409, not a silent overwrite).
 * Kinds are mapped to resources by API discovery (kept for the life of the applier); custom
 * resources whose CRD was just created are retried until the API server serves the kind.
 */
export class KubeManifestApplier implements ManifestApi {
  private readonly discovery = new KubeDiscovery();

  constructor(
    private readonly client: KubeClientSource,
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
        this.discovery.forget(manifest.apiVersion);
        this.options.log.info('kind not served yet, waiting for its CRD', {
          object: describe(manifest),
          attempt,
        });
        await (this.options.sleep ?? defaultSleep)(this.options.retryDelayMs ?? 1000);
      }
    }
  }

  private async applyOnce(manifest: KubeManifest): Promise<'created' | 'updated'> {
    const rest = await this.client();
    const { collection, object } = await this.pathsOf(rest, manifest);
    const existing = await rest.get<KubeManifest>(object).catch((error: unknown) => {
      if (isNotFound(error) && !isUnservedKind(error)) return undefined;
      throw error;
    });
    if (!existing) {
      await rest.request({ method: 'POST', path: collection, query: FIELD_MANAGER, body: manifest });
      return 'created';
    }
    const resourceVersion = existing.metadata?.resourceVersion;
    const replacement = {
      ...manifest,
      metadata: { ...manifest.metadata, ...(resourceVersion ? { resourceVersion } : {}) },
    };
    await rest.request({ method: 'PUT', path: object, query: FIELD_MANAGER, body: replacement });
    return 'updated';
  }

  async get(manifest: KubeManifest): Promise<KubeManifest | undefined> {
    try {
      const rest = await this.client();
      const { object } = await this.pathsOf(rest, manifest);
      return await rest.get<KubeManifest>(object);
    } catch (error) {
      if (isUnservedKind(error)) this.discovery.forget(manifest.apiVersion);
      if (isNotFound(error) || isUnservedKind(error)) return undefined;
      throw kubeError(`reading ${describe(manifest)}`, error);
    }
  }

  async delete(manifest: KubeManifest): Promise<boolean> {
    try {
      const rest = await this.client();
      const { object } = await this.pathsOf(rest, manifest);
      await rest.request({ method: 'DELETE', path: object });
      return true;
    } catch (error) {
      if (isUnservedKind(error)) this.discovery.forget(manifest.apiVersion);
      if (isNotFound(error) || isUnservedKind(error)) return false;
      throw kubeError(`deleting ${describe(manifest)}`, error);
    }
  }

  /** The paths of the manifest's collection and object (namespaced kinds default to `default`). */
  private async pathsOf(rest: KubeTransport, manifest: KubeManifest) {
    const type = await this.discovery.resourceOf(rest, manifest.apiVersion, manifest.kind);
    const namespace = type.namespaced ? (manifest.metadata.namespace ?? 'default') : undefined;
    return {
      collection: resourcePath(type, { namespace }),
      object: resourcePath(type, { namespace, name: manifest.metadata.name }),
    };
  }
}

/**
 * True when the API server does not serve a manifest's kind (discovery lacks it, or the resource
 * path itself is unknown: a CRD removed since discovery). The caller drops what discovery knew of
 * its group/version, so the next attempt asks again.
 */
function isUnservedKind(error: unknown): boolean {
  return (
    error instanceof UnservedKindError ||
    (isNotFound(error) && /the server could not find the requested resource/i.test((error as Error).message))
  );
}

/** `Kind name` (with the namespace when namespaced) for messages. */
export function describe(manifest: KubeManifest): string {
  const { name, namespace } = manifest.metadata;
  return `${manifest.kind} ${namespace ? `${namespace}/` : ''}${name}`;
}
