import type { DisruptionDeps } from '../disruption/disruption-deps.js';
import type { LifecycleDeps } from '../lifecycle/lifecycle-deps.js';
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
}

/** Default sweep settings: 2 minutes of grace for orphans, up to 10,000 due claims per sweep. */
export const DEFAULT_SWEEP_SETTINGS: SweepSettings = { orphanGraceMs: 2 * 60_000, dueLimit: 10_000 };

/** What the sweep needs: the lifecycle and disruption deps plus publishing. */
export interface SweepDeps extends LifecycleDeps, DisruptionDeps {
  readonly cluster: DisruptionDeps['cluster'];
  readonly store: DisruptionDeps['store'];
  readonly config: DisruptionDeps['config'];
  readonly events: EventPublisher;
  readonly settings?: Partial<SweepSettings>;
}

/** The sweep settings of `deps` with defaults filled in. */
export function sweepSettings(deps: Pick<SweepDeps, 'settings'>): SweepSettings {
  return { ...DEFAULT_SWEEP_SETTINGS, ...deps.settings };
}
