/**
 * The sweep's status step: writes what kubectl shows. It mirrors every live nodeclaim of the
 * state table as a NodeClaim resource (owned by its NodePool) and deletes resources without a
 * live claim, then writes each NodeClass's status (what its selectors resolve to, its capacity
 * reservations, Ready False while EC2 terminates its launches: nodeclass-launch-backoff.ts) and each
 * NodePool's status (resources in use, NodeClassReady, LaunchSucceeded, Ready). Best effort: a failure is logged
 * and the next sweep writes again; unchanged resources are not rewritten.
 */

import { stableStringify } from '../launch/hash.js';
import { LAUNCH_FAILURE_REASONS } from '../launch/launch-denial.js';
import { failureStatusMessage, nodeClassLaunchFailures } from '../launch/nodeclass-launch-backoff.js';
import type { ClusterConfig } from '../lifecycle/cluster-config.js';
import type { Catalog } from '../model/instance-type.js';
import type { NodeClaimState } from '../nodeclaim/nodeclaim.js';
import { NODE_CLAIM_STATES } from '../nodeclaim/nodeclaim.js';
import type { Clock } from '../ports/clock.js';
import type { CloudProvider } from '../ports/cloud-provider.js';
import type { ClusterApi, ConfigDocument } from '../ports/cluster-api.js';
import type { ConfigObjectRef } from '../ports/cluster-status.js';
import type { Log } from '../ports/log.js';
import type { StateStore } from '../ports/state-store.js';
import { listNodeOverlayDocuments } from '../provisioning/overlay-documents.js';
import { type Condition, keepTransitionTimes } from './conditions.js';
import { type NodePoolOwner, nodeClaimResource } from './nodeclaim-resource.js';
import { type NodeClassReadiness, nodeClassStatus, readinessOf } from './nodeclass-status.js';
import { nodeOverlayStatus, overlayOutcomes } from './nodeoverlay-status.js';
import { latestLaunchFailure, nodePoolStatus } from './nodepool-status.js';

/** What the status step needs. */
export interface ReportStatusDeps {
  readonly cluster: ClusterApi;
  readonly store: Pick<StateStore, 'listNodeClaims'>;
  readonly cloud: Pick<CloudProvider, 'resolveNodeClass' | 'capacityReservations'>;
  readonly config: () => Promise<ClusterConfig>;
  readonly clock: Clock;
  readonly log: Log;
  /** The instance types NodeOverlays are checked against; without it no overlay status is written. */
  readonly catalog?: Catalog;
}

/** What the step wrote. */
export interface StatusOutcome {
  readonly nodeClaimsWritten: number;
  readonly nodeClaimsDeleted: number;
  readonly nodePools: number;
  readonly nodeClasses: number;
  /** NodeOverlays whose status was computed (and written when it changed). */
  readonly nodeOverlays?: number;
}

const LIVE: readonly NodeClaimState[] = NODE_CLAIM_STATES.filter((s) => s !== 'Gone');

/** The NodePool objects claims are owned by, by name (the first kind found, as listed). */
export function ownersOf(documents: readonly ConfigDocument[]): Map<string, NodePoolOwner> {
  const owners = new Map<string, NodePoolOwner>();
  for (const d of documents) {
    const uid = d.metadata.uid;
    if (typeof uid !== 'string' || owners.has(d.metadata.name)) continue;
    owners.set(d.metadata.name, { apiVersion: d.apiVersion, kind: d.kind, name: d.metadata.name, uid });
  }
  return owners;
}

/** The status each configuration object has now, by `apiVersion/kind/name`. */
function statusesOf(documents: readonly ConfigDocument[]): Map<string, Record<string, unknown>> {
  const out = new Map<string, Record<string, unknown>>();
  for (const d of documents) {
    if (d.status && typeof d.status === 'object')
      out.set(`${d.apiVersion}/${d.kind}/${d.metadata.name}`, d.status as Record<string, unknown>);
  }
  return out;
}

/** Runs the step; never throws. */
export async function reportStatus(deps: ReportStatusDeps): Promise<StatusOutcome> {
  const outcome = {
    nodeClaimsWritten: 0,
    nodeClaimsDeleted: 0,
    nodePools: 0,
    nodeClasses: 0,
    nodeOverlays: 0,
  };
  try {
    const [all, config, documents, classDocuments, mirrored, nodes, overlayDocuments] = await Promise.all([
      deps.store.listNodeClaims(),
      deps.config(),
      deps.cluster.listNodePoolDocuments(),
      deps.cluster.listNodeClassDocuments(),
      deps.cluster.listNodeClaims(),
      deps.cluster.listNodes(),
      listNodeOverlayDocuments(deps.cluster),
    ]);
    // Gone claims are read too: a pool's latest failed launch is one of them.
    const claims = all.filter((c) => LIVE.includes(c.state));
    const previous = statusesOf([...documents, ...classDocuments, ...overlayDocuments]);
    /** Writes a status unless it is the one already there; unchanged conditions keep their times. */
    const write = async (ref: ConfigObjectRef, status: Record<string, unknown>): Promise<void> => {
      const before = previous.get(`${ref.apiVersion}/${ref.kind}/${ref.name}`);
      const next = {
        ...status,
        conditions: keepTransitionTimes(
          status.conditions as Condition[],
          before?.conditions as Condition[] | undefined,
        ),
      };
      if (stableStringify(next) !== stableStringify(before)) await deps.cluster.patchConfigStatus(ref, next);
    };
    const owners = ownersOf(documents);
    // Compared with their keys sorted: the API server keeps a merge patch's fields in the order
    // the object had them, so the resource read back is the same value in another order.
    const existing = new Map(mirrored.map((m) => [m.name, stableStringify(m.resource)]));
    const desired = claims.map((c) => nodeClaimResource(c, owners.get(c.nodePool)));
    const changed = desired.filter((r) => existing.get(r.metadata.name) !== stableStringify(r));
    await deps.cluster.applyNodeClaims(changed);
    const live = new Set(claims.map((c) => c.id));
    const stale = mirrored.map((m) => m.name).filter((name) => !live.has(name));
    await deps.cluster.deleteNodeClaims(stale);
    outcome.nodeClaimsWritten = changed.length;
    outcome.nodeClaimsDeleted = stale.length;

    const now = deps.clock.now();
    const readiness = new Map<string, NodeClassReadiness>();
    const launchFailures = nodeClassLaunchFailures(all, config.nodeClasses, now);
    for (const nodeClass of config.nodeClasses) {
      // A Provisioner's inline provider is a NodeClass without an object of its own.
      if (!deps.cloud.resolveNodeClass || nodeClass.source.kind === 'Provisioner') continue;
      const resolved = await deps.cloud.resolveNodeClass(nodeClass).catch((e: unknown) => e as Error);
      const r = readinessOf(resolved);
      const failing = launchFailures.get(nodeClass.name);
      const launchFailure = failing && {
        reason: failing.reason,
        message: failureStatusMessage(failing, now),
      };
      readiness.set(nodeClass.name, r.ready && launchFailure ? { ready: false, ...launchFailure } : r);
      const { apiVersion, kind, name } = nodeClass.source;
      const reservations = deps.cloud.capacityReservations
        ? await deps.cloud.capacityReservations(nodeClass).catch((e: unknown) => e as Error)
        : undefined;
      await write({ apiVersion, kind, name }, nodeClassStatus(r, now, reservations, launchFailure));
      outcome.nodeClasses++;
    }
    for (const pool of config.nodePools) {
      const status = nodePoolStatus({
        pool,
        claims: claims.filter((c) => c.nodePool === pool.name),
        nodes: nodes.filter((n) => n.metadata.labels?.['karpenter.sh/nodepool'] === pool.name),
        nodeClass: readiness.get(pool.nodeClassRef.name),
        launchFailure: latestLaunchFailure(
          all.filter((c) => c.nodePool === pool.name),
          LAUNCH_FAILURE_REASONS,
          now,
        ),
        now,
      });
      const { apiVersion, kind, name } = pool.source;
      await write({ apiVersion, kind, name }, status);
      outcome.nodePools++;
    }
    const overlays = config.nodeOverlays ?? [];
    if (deps.catalog && overlays.length > 0) {
      const results = overlayOutcomes(overlays, config.nodePools, config.nodeClasses, deps.catalog);
      for (const result of results) {
        const { apiVersion, kind, name } = result.overlay.source;
        await write({ apiVersion, kind, name }, nodeOverlayStatus(result, now));
        outcome.nodeOverlays++;
      }
    }
  } catch (error) {
    deps.log.warn('writing nodeclaim resources and NodePool status failed, the next sweep retries', {
      error: (error as Error).message,
    });
  }
  return outcome;
}
