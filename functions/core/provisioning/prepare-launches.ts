/**
 * Work done ahead of launches so that a launch only sends CreateFleet: the NodeClasses are
 * resolved as soon as they are read (while the run reads the rest of the cluster and plans), and
 * each claim's launch templates are created while the claim is written.
 */
import { nextAttemptOptions } from '../launch/launch-options.js';
import type { NodeClass } from '../model/node-class.js';
import type { NodeClaim } from '../nodeclaim/nodeclaim.js';
import type { OfferingKey } from '../ports/state-store.js';
import type { SchedulingPool } from '../scheduling/types.js';
import { type LaunchClaimsDeps, launchConfigOf } from './launch-claims.js';

/** The NodeClass resolution of a run: started once, with the first NodeClasses known. */
export interface NodeClassPreparation {
  /** Starts resolving `nodeClasses` unless it has started already (none: nothing starts). */
  readonly start: (nodeClasses: readonly NodeClass[]) => void;
  /** Resolves when the resolution started (if any) has ended. */
  readonly settled: () => Promise<void>;
}

/** A {@link NodeClassPreparation} in the cloud of `deps`. */
export function nodeClassPreparation(deps: Pick<LaunchClaimsDeps, 'cloud' | 'log'>): NodeClassPreparation {
  let started: Promise<void> | undefined;
  return {
    start: (nodeClasses) => {
      if (nodeClasses.length > 0) started ??= prepareNodeClasses(deps, nodeClasses);
    },
    settled: () => started ?? Promise.resolve(),
  };
}

/** Resolves `nodeClasses` in the cloud. Never rejects: a failure here is the launch's to report. */
async function prepareNodeClasses(
  deps: Pick<LaunchClaimsDeps, 'cloud' | 'log'>,
  nodeClasses: readonly NodeClass[],
): Promise<void> {
  await Promise.all(
    nodeClasses.map(async (nodeClass) => {
      try {
        await deps.cloud.prepareNodeClass?.(nodeClass);
      } catch (error) {
        deps.log.debug('resolving the NodeClass failed, the launch will retry', {
          nodeclass: nodeClass.name,
          error: (error as Error).message,
        });
      }
    }),
  );
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
  const first = nextAttemptOptions(claim.options, unavailable);
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
