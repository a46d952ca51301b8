import type { DisruptionDeps } from '../disruption/disruption-deps.js';
import type { LifecycleDeps } from '../lifecycle/lifecycle-deps.js';
import type { KarpenterKinds } from '../model/config/karpenter-kinds.js';
import type { EventPublisher } from '../ports/event-publisher.js';

/** Settings of the sweep. */
export interface SweepSettings {
  /** A tagged instance without a live claim is collected only after this long (a launch may be in flight). */
  readonly orphanGraceMs: number;
  /**
   * Most due claims read per sweep (read in due-time order, page by page). Every due timer is acted
   * on or moved later, so this bounds one sweep's work, not what the next one sees.
   */
  readonly dueLimit: number;
  /** Most orphaned instances terminated per sweep (a bug or a foreign table cannot empty the cluster at once). */
  readonly maxOrphanTerminations: number;
}

/**
 * Default sweep settings: 2 minutes of grace for orphans, at most 5 orphans terminated per sweep,
 * up to 10,000 due claims per sweep.
 */
export const DEFAULT_SWEEP_SETTINGS: SweepSettings = {
  orphanGraceMs: 2 * 60_000,
  dueLimit: 10_000,
  maxOrphanTerminations: 5,
};

/** What the sweep needs: the lifecycle and disruption deps plus publishing. */
export interface SweepDeps extends LifecycleDeps, DisruptionDeps {
  readonly cluster: DisruptionDeps['cluster'];
  readonly store: DisruptionDeps['store'];
  readonly config: DisruptionDeps['config'];
  readonly events: EventPublisher;
  readonly settings?: Partial<SweepSettings>;
  /**
   * The identity this joiner tags its instances with (`joiner.sh/owner`, its state table's name):
   * the orphan GC terminates only instances carrying it. Unknown: no instance is collected.
   */
  readonly owner?: string;
  /** Whether NodePools (and NodeClaims) of Karpenter's kinds are joiner's; default `manage`. */
  readonly karpenterKinds?: KarpenterKinds;
}

/** The sweep settings of `deps` with defaults filled in. */
export function sweepSettings(deps: Pick<SweepDeps, 'settings'>): SweepSettings {
  return { ...DEFAULT_SWEEP_SETTINGS, ...deps.settings };
}
