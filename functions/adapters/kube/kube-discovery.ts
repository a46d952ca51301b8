import { isNotFound } from './kube-errors.js';
import { groupVersionPath, type ResourceType } from './kube-paths.js';
import type { KubeTransport } from './kube-transport.js';

/** A kind the API server serves: its resource (plural) and whether its objects live in namespaces. */
export interface ServedKind extends ResourceType {
  readonly kind: string;
  readonly namespaced: boolean;
}

/**
 * The API server does not serve this kind (yet): its group/version is unknown, or lacks the kind.
 * A CRD that was just created is served a moment later.
 */
export class UnservedKindError extends Error {
  constructor(
    readonly apiVersion: string,
    readonly kind: string,
    why: string,
  ) {
    super(`the API server does not serve ${kind} in ${apiVersion}: ${why}`);
    this.name = 'UnservedKindError';
  }
}

interface ApiResourceList {
  readonly resources?: readonly { name: string; kind: string; namespaced: boolean }[];
}

/**
 * Maps kinds to resources the way kubectl does, from the discovery document of the kind's
 * group/version (`GET /api/v1`, `GET /apis/{group}/{version}`). A served group/version is read
 * once and kept; one that is not served (or lacks the kind) is asked again next time, so a CRD
 * being installed is found as soon as the API server serves it.
 */
export class KubeDiscovery {
  private readonly served = new Map<string, Promise<ApiResourceList>>();

  /** The resource of `kind` in `apiVersion`; throws {@link UnservedKindError} when not served. */
  async resourceOf(rest: KubeTransport, apiVersion: string, kind: string): Promise<ServedKind> {
    const list = await this.resources(rest, apiVersion, kind);
    const found = (list.resources ?? []).find((r) => r.kind === kind && !r.name.includes('/'));
    if (!found) {
      this.forget(apiVersion);
      throw new UnservedKindError(apiVersion, kind, `${apiVersion} has no such kind`);
    }
    return { apiVersion, kind, plural: found.name, namespaced: found.namespaced };
  }

  /** Drops what is known of a group/version (its kinds may have changed). */
  forget(apiVersion: string): void {
    this.served.delete(apiVersion);
  }

  private resources(rest: KubeTransport, apiVersion: string, kind: string): Promise<ApiResourceList> {
    let list = this.served.get(apiVersion);
    if (!list) {
      list = rest.get<ApiResourceList>(groupVersionPath(apiVersion)).catch((error: unknown) => {
        this.forget(apiVersion);
        if (isNotFound(error))
          throw new UnservedKindError(apiVersion, kind, `group/version ${apiVersion} is not served`);
        throw error;
      });
      this.served.set(apiVersion, list);
    }
    return list;
  }
}
