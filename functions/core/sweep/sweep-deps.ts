import type { LifecycleDeps } from '../lifecycle/lifecycle-deps.js';
import type { RetireDeps } from '../lifecycle/retire-claim.js';
import type { CloudProvider } from '../ports/cloud-provider.js';
import type { ClusterApi } from '../ports/cluster-api.js';
import type { EventPublisher } from '../ports/event-publisher.js';
import type { StateStore } from '../ports/state-store.js';

/** Settings of the sweep. */
export interface SweepSettings {
  /** A tagged instance without a live claim is collected only after this long (a launch may be in flight). */
  readonly orphanGraceMs: number;
  /** Most due claims handled per sweep. */
  readonly dueLimit: number;
}

/** Default sweep settings: 2 minutes of grace for orphans, 100 due claims per sweep. */
export const DEFAULT_SWEEP_SETTINGS: SweepSettings = { orphanGraceMs: 2 * 60_000, dueLimit: 100 };

/** What the sweep needs: the lifecycle and retire slices plus listing and publishing. */
export interface SweepDeps extends LifecycleDeps, RetireDeps {
  readonly cluster: LifecycleDeps['cluster'] & RetireDeps['cluster'] & Pick<ClusterApi, 'listPendingPods'>;
  readonly store: LifecycleDeps['store'] &
    RetireDeps['store'] &
    Pick<StateStore, 'listNodeClaims' | 'listDueNodeClaims'>;
  readonly cloud: RetireDeps['cloud'] & Pick<CloudProvider, 'list' | 'get'>;
  readonly events: EventPublisher;
  readonly settings?: Partial<SweepSettings>;
}

/** The sweep settings of `deps` with defaults filled in. */
export function sweepSettings(deps: Pick<SweepDeps, 'settings'>): SweepSettings {
  return { ...DEFAULT_SWEEP_SETTINGS, ...deps.settings };
}
