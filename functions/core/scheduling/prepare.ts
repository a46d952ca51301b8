/** Builds the scheduler's pools from NodePools, NodeClasses and a catalog (pure). */
import { withReservedOfferings } from '../catalog/reserved-offerings.js';
import { resolveInstanceTypes } from '../catalog/resolve.js';
import { nodeRoleProblem } from '../launch/node-role.js';
import type { CapacityReservation } from '../model/capacity-reservation.js';
import type { CapacityType, Catalog } from '../model/instance-type.js';
import type { NodeClass } from '../model/node-class.js';
import type { NodeOverlay } from '../model/node-overlay.js';
import type { NodePool } from '../model/node-pool.js';
import { applyNodeOverlays } from './node-overlays.js';
import type { SchedulingPool } from './types.js';

/** Options of {@link schedulingPools}. */
export interface SchedulingPoolOptions {
  /** True while an offering is marked unavailable (e.g. after InsufficientInstanceCapacity). */
  readonly isUnavailable?: (type: string, zone: string, capacityType: CapacityType) => boolean;
  /**
   * The node role ARNs joiner may pass to EC2: a pool whose NodeClass names another `role` gets
   * a problem. Undefined: roles are not checked against a list.
   */
  readonly allowedNodeRoles?: readonly string[];
  /**
   * The zones a NodeClass (by name) can launch in; its offerings elsewhere are left out.
   * Undefined (or undefined for a NodeClass): every zone of the catalog.
   */
  readonly launchZones?: (nodeClass: string) => readonly string[] | undefined;
  /** The zone IDs of a NodeClass's (by name) zones, from its subnets; offerings carry them. */
  readonly zoneIds?: (nodeClass: string) => ReadonlyMap<string, string> | undefined;
  /** NodeOverlays to apply to the pools' instance types (see node-overlays.ts). Default: none. */
  readonly overlays?: readonly NodeOverlay[];
  /** The capacity reservations a NodeClass (by name) selects: they add `reserved` offerings. */
  readonly reservations?: (nodeClass: string) => readonly CapacityReservation[] | undefined;
  /** Epoch ms of the run (an expiring Capacity Block offers nothing); default the current time. */
  readonly now?: number;
}

/**
 * One scheduling pool per NodePool: its NodeClass (kubelet settings of v1beta1 / v1alpha5 pools
 * merged in) and the catalog's instance types resolved for it. A pool whose NodeClass is missing,
 * or names a role joiner may not pass, gets a `problem` and no instance types; the scheduler
 * reports it as the reason. NodeOverlays (`options.overlays`) change the prices and extended
 * resources of the instance types they select.
 */
export function schedulingPools(
  nodePools: readonly NodePool[],
  nodeClasses: readonly NodeClass[],
  catalog: Catalog,
  options: SchedulingPoolOptions = {},
): SchedulingPool[] {
  const byName = new Map(nodeClasses.map((c) => [c.name, c]));
  const pools = nodePools.map((pool): SchedulingPool => {
    const found = byName.get(pool.nodeClassRef.name);
    if (!found) {
      return {
        pool,
        instanceTypes: [],
        problem: `nodeClassRef ${pool.nodeClassRef.kind}/${pool.nodeClassRef.name} not found`,
      };
    }
    const roleProblem = nodeRoleProblem(found, options.allowedNodeRoles);
    if (roleProblem) return { pool, nodeClass: found, instanceTypes: [], problem: roleProblem };
    const nodeClass = pool.kubelet ? { ...found, kubelet: { ...found.kubelet, ...pool.kubelet } } : found;
    const instanceTypes = resolveInstanceTypes(catalog, nodeClass, {
      isUnavailable: options.isUnavailable,
      zones: options.launchZones?.(found.name),
      zoneIds: options.zoneIds?.(found.name),
    });
    const reservations = options.reservations?.(found.name) ?? [];
    return {
      pool,
      nodeClass,
      instanceTypes:
        reservations.length === 0
          ? instanceTypes
          : withReservedOfferings(instanceTypes, reservations, {
              now: options.now ?? Date.now(),
              isUnavailable: options.isUnavailable,
            }),
    };
  });
  const overlays = options.overlays ?? [];
  return overlays.length === 0 ? pools : applyNodeOverlays(pools, overlays).pools;
}
