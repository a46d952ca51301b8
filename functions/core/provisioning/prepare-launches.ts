/**
 * Work done ahead of launches so that a launch only sends CreateFleet: the NodeClasses are
 * resolved as soon as they are read (while the run reads the rest of the cluster and plans), and
 * each claim's launch templates are created while the claim is written.
 */
import { nextAttemptOptions } from '../launch/launch-options.js';
import type { CapacityReservation } from '../model/capacity-reservation.js';
import type { NodeClass } from '../model/node-class.js';
import type { NodeClaim } from '../nodeclaim/nodeclaim.js';
import type { LaunchZone } from '../ports/cloud-provider.js';
import type { OfferingKey } from '../ports/state-store.js';
import type { SchedulingPool } from '../scheduling/types.js';
import { type LaunchClaimsDeps, launchConfigOf } from './launch-claims.js';

/** The NodeClass resolution of a run: started once, with the first NodeClasses known. */
export interface NodeClassPreparation {
  /** Starts resolving `nodeClasses` unless it has started already (none: nothing starts). */
  readonly start: (nodeClasses: readonly NodeClass[]) => void;
  /**
   * Resolves when the resolution started (if any) has ended, with the zones each resolved
   * NodeClass can launch in, by name (NodeClasses that failed, or whose cloud names no zones, are
   * left out: any zone will do for them).
   */
  readonly settled: () => Promise<LaunchZones>;
  /**
   * Resolves with the capacity reservations each resolved NodeClass selects, by name (read once
   * per run, with the resolution; a NodeClass whose read failed offers none).
   */
  readonly reservations: () => Promise<ReadonlyMap<string, readonly CapacityReservation[]>>;
}

/** The zones each NodeClass can launch in (with their zone IDs when known), by NodeClass name. */
export type LaunchZones = ReadonlyMap<string, readonly LaunchZone[]>;

const NO_ZONES: LaunchZones = new Map();

/** A {@link NodeClassPreparation} in the cloud of `deps`. */
export function nodeClassPreparation(deps: Pick<LaunchClaimsDeps, 'cloud' | 'log'>): NodeClassPreparation {
  let started: Promise<LaunchZones> | undefined;
  let reserved: Promise<Map<string, readonly CapacityReservation[]>> | undefined;
  return {
    start: (nodeClasses) => {
      if (nodeClasses.length === 0) return;
      started ??= prepareNodeClasses(deps, nodeClasses);
      reserved ??= readReservations(deps, nodeClasses);
    },
    settled: () => started ?? Promise.resolve(NO_ZONES),
    reservations: () => reserved ?? Promise.resolve(new Map()),
  };
}

/** The reservations of the NodeClasses that select some. Never rejects: a failure offers none. */
async function readReservations(
  deps: Pick<LaunchClaimsDeps, 'cloud' | 'log'>,
  nodeClasses: readonly NodeClass[],
): Promise<Map<string, readonly CapacityReservation[]>> {
  const out = new Map<string, readonly CapacityReservation[]>();
  const read = deps.cloud.capacityReservations?.bind(deps.cloud);
  if (!read) return out;
  await Promise.all(
    nodeClasses
      .filter((c) => c.capacityReservationSelectorTerms.length > 0)
      .map(async (nodeClass) => {
        try {
          out.set(nodeClass.name, await read(nodeClass));
        } catch (error) {
          deps.log.warn('reading the capacity reservations failed, none is offered this run', {
            nodeclass: nodeClass.name,
            error: (error as Error).message,
          });
        }
      }),
  );
  return out;
}

/** Resolves `nodeClasses` in the cloud. Never rejects: a failure here is the launch's to report. */
async function prepareNodeClasses(
  deps: Pick<LaunchClaimsDeps, 'cloud' | 'log'>,
  nodeClasses: readonly NodeClass[],
): Promise<LaunchZones> {
  const zones = new Map<string, readonly LaunchZone[]>();
  await Promise.all(
    nodeClasses.map(async (nodeClass) => {
      try {
        const found = await deps.cloud.prepareNodeClass?.(nodeClass);
        if (found) zones.set(nodeClass.name, found);
      } catch (error) {
        deps.log.debug('resolving the NodeClass failed, the launch will retry', {
          nodeclass: nodeClass.name,
          error: (error as Error).message,
        });
      }
    }),
  );
  return zones;
}

/**
 * Gets the cloud ready to launch a claim (its NodeClass resolved, the launch templates of its
 * first attempt created) while it is being written, so its launch only sends CreateFleet.
 * Never rejects: a failure here is the launch's to report.
 */
export async function prepareLaunch(
  deps: Pick<LaunchClaimsDeps, 'cloud' | 'log'>,
  claim: NodeClaim,
  pools: readonly SchedulingPool[],
  unavailable: readonly OfferingKey[],
): Promise<void> {
  const config = launchConfigOf(claim, pools);
  const first = nextAttemptOptions(claim.options, unavailable, claim.requirements);
  if (!config || !first) return;
  try {
    await deps.cloud.prepare?.({ claim, ...config, ...first });
  } catch (error) {
    deps.log.debug('preparing the launch failed, the launch will retry', {
      nodeclaim: claim.id,
      error: (error as Error).message,
    });
  }
}
