import type { Taint } from '../model/taint.js';
import type { NodeClaim } from '../nodeclaim/nodeclaim.js';
import type { Clock } from '../ports/clock.js';
import type { ClusterApi } from '../ports/cluster-api.js';
import type { TimerScheduler } from '../ports/event-publisher.js';
import type { Log } from '../ports/log.js';
import type { StateStore } from '../ports/state-store.js';
import type { ClusterConfig } from './cluster-config.js';

/** What the lifecycle core needs (narrow slices of the ports). */
export interface LifecycleDeps {
  readonly clock: Clock;
  readonly log: Log;
  readonly cluster: Pick<ClusterApi, 'getNode' | 'listPodsOnNode' | 'patchNode'>;
  readonly store: Pick<StateStore, 'getNodeClaim' | 'updateNodeClaim' | 'findNodeClaimByInstanceId'>;
  /** Precise wake-ups for the timers the lifecycle arms (emptiness). */
  readonly timers: TimerScheduler;
  /** The cluster's NodePools and NodeClasses (read once per invocation by the caller's choice). */
  readonly config: () => Promise<ClusterConfig>;
  /** The Multus startup taint of the claim's NodeClass, if it has one. */
  readonly multusTaintOf: (claim: NodeClaim) => Promise<Taint | undefined>;
}

/**
 * Builds {@link LifecycleDeps} from the ports: the cluster configuration is read from the API
 * server at most once per call of this function's result.
 */
export function lifecycleDeps(
  base: Omit<LifecycleDeps, 'config' | 'multusTaintOf'>,
  readConfig: () => Promise<ClusterConfig>,
): LifecycleDeps {
  let cached: Promise<ClusterConfig> | undefined;
  const config = (): Promise<ClusterConfig> => {
    cached ??= readConfig();
    return cached;
  };
  const multusTaintOf = async (claim: NodeClaim): Promise<Taint | undefined> =>
    (await config()).nodeClasses.find((c) => c.name === claim.nodeClass)?.multusReadyTaint;
  return { ...base, config, multusTaintOf };
}
