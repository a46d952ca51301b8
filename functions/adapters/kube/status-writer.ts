/**
 * The {@link ClusterStatusWriter} half of the Kubernetes adapter: NodeClaim resources
 * (`nodeclaims.joiner.sh`, created or merge-patched) and the status subresource of NodePools and
 * NodeClasses. Writes are best effort: a failure is logged and left to the next sweep.
 */
import type { ConfigObjectRef, MirroredNodeClaim } from '../../core/ports/cluster-status.js';
import type { Log } from '../../core/ports/log.js';
import { NODE_CLAIM_API_VERSION, type NodeClaimResource } from '../../core/status/nodeclaim-resource.js';
import { isNotFound, statusOf } from './kube-errors.js';
import { listAll } from './kube-lists.js';
import { type ResourceType, resourcePath } from './kube-paths.js';
import type { KubeTransport } from './kube-transport.js';

const NODE_CLAIMS: ResourceType = { apiVersion: NODE_CLAIM_API_VERSION, plural: 'nodeclaims' };

/** Writes at once at most. */
const CONCURRENCY = 8;

/** The resource name of the configuration kinds whose status joiner writes. */
const PLURALS: Readonly<Record<string, string>> = {
  NodePool: 'nodepools',
  NodeClass: 'nodeclasses',
  EC2NodeClass: 'ec2nodeclasses',
  Provisioner: 'provisioners',
  AWSNodeTemplate: 'awsnodetemplates',
  NodeOverlay: 'nodeoverlays',
  // Karpenter's NodeClaims (a hand-made one is refused in its status; joiner's own have none).
  NodeClaim: 'nodeclaims',
};

async function inChunks<T>(items: readonly T[], fn: (item: T) => Promise<void>): Promise<void> {
  for (let i = 0; i < items.length; i += CONCURRENCY)
    await Promise.all(items.slice(i, i + CONCURRENCY).map(fn));
}

function warn(log: Log, what: string, error: unknown): void {
  log.warn(`${what} failed (best effort; the sweep writes it again)`, {
    status: statusOf(error),
    error: (error as Error).message,
  });
}

/** Creates or merge-patches each resource; `fresh` ones are created first (one request when new). */
export async function applyNodeClaims(
  rest: KubeTransport,
  log: Log,
  resources: readonly NodeClaimResource[],
  fresh = false,
): Promise<void> {
  await inChunks(resources, async (resource) => {
    const name = resource.metadata.name;
    const patch = () => rest.patch(resourcePath(NODE_CLAIMS, { name }), 'merge', resource);
    const create = () => rest.request({ method: 'POST', path: resourcePath(NODE_CLAIMS), body: resource });
    try {
      if (!fresh) await patch();
      else await create();
    } catch (error) {
      const retry = fresh ? statusOf(error) === 409 : isNotFound(error);
      if (!retry) return warn(log, `writing nodeclaim ${name}`, error);
      try {
        await (fresh ? patch() : create());
      } catch (again) {
        warn(log, `writing nodeclaim ${name}`, again);
      }
    }
  });
}

/** Deletes the resources, their finalizers removed first (their claim is gone); missing ones are fine. */
export async function deleteNodeClaims(
  rest: KubeTransport,
  log: Log,
  names: readonly string[],
): Promise<void> {
  await inChunks(names, async (name) => {
    const path = resourcePath(NODE_CLAIMS, { name });
    try {
      await rest.patch(path, 'merge', { metadata: { finalizers: null } });
      await rest.request({ method: 'DELETE', path });
    } catch (error) {
      if (!isNotFound(error)) warn(log, `deleting nodeclaim ${name}`, error);
    }
  });
}

/**
 * The NodeClaim resources, each reduced to what joiner writes (so an unchanged one is not
 * rewritten). None when the CRD is not installed.
 */
export async function listNodeClaims(rest: KubeTransport): Promise<MirroredNodeClaim[]> {
  try {
    const items = await listAll<NodeClaimResource & { metadata: Record<string, unknown> }>(
      rest,
      resourcePath(NODE_CLAIMS),
    );
    return items.map((item) => {
      const { labels, ownerReferences, finalizers } = item.metadata as Pick<
        NodeClaimResource['metadata'],
        'labels' | 'ownerReferences' | 'finalizers'
      >;
      const owners = ownerReferences?.map(({ apiVersion, kind, name, uid, blockOwnerDeletion }) => ({
        apiVersion,
        kind,
        name,
        uid,
        blockOwnerDeletion,
      }));
      const metadata = {
        name: String(item.metadata.name),
        labels: labels ?? {},
        ...(owners ? { ownerReferences: owners } : {}),
        ...(finalizers ? { finalizers } : {}),
      };
      return {
        name: String(item.metadata.name),
        resource: {
          apiVersion: NODE_CLAIM_API_VERSION,
          kind: 'NodeClaim',
          metadata,
          spec: item.spec,
          status: item.status,
        },
        ...(item.metadata.deletionTimestamp ? { deleting: true } : {}),
      };
    });
  } catch (error) {
    if (isNotFound(error)) return [];
    throw error;
  }
}

/** Replaces `status` of a NodePool / NodeClass through its status subresource. */
export async function patchConfigStatus(
  rest: KubeTransport,
  log: Log,
  ref: ConfigObjectRef,
  status: Readonly<Record<string, unknown>>,
): Promise<void> {
  const plural = PLURALS[ref.kind];
  if (!plural) return;
  const path = resourcePath(
    { apiVersion: ref.apiVersion, plural },
    { name: ref.name, subresource: 'status' },
  );
  try {
    // A JSON merge patch replaces lists (conditions) whole; `null` first clears fields dropped since.
    await rest.patch(path, 'merge', { status: { ...status } });
  } catch (error) {
    warn(log, `writing the status of ${ref.kind} ${ref.name}`, error);
  }
}
