import type { ConsolidationMemory } from '../disruption/consolidation/search-fingerprint.js';
import { readClusterConfig } from '../lifecycle/cluster-config.js';
import { lifecycleDeps } from '../lifecycle/lifecycle-deps.js';
import type { KarpenterKinds } from '../model/config/karpenter-kinds.js';
import type { Catalog } from '../model/instance-type.js';
import type { Clock } from '../ports/clock.js';
import type { CloudProvider } from '../ports/cloud-provider.js';
import type { ClusterApi } from '../ports/cluster-api.js';
import type { EventPublisher, TimerScheduler } from '../ports/event-publisher.js';
import type { Log } from '../ports/log.js';
import type { StateStore } from '../ports/state-store.js';
import type { SweepDeps, SweepSettings } from './sweep-deps.js';

/** The full ports a handler holds. */
export interface SweepPorts {
  readonly clock: Clock;
  readonly log: Log;
  readonly cluster: ClusterApi;
  readonly store: StateStore;
  readonly cloud: CloudProvider;
  readonly events: EventPublisher;
  readonly timers: TimerScheduler;
  /** Instance types for the replacement capacity drains launch. */
  readonly catalog: Catalog;
  /** The node role ARNs joiner may pass; default: not checked. */
  readonly nodeRoles?: readonly string[];
  /** Whether NodePools of Karpenter's kinds are acted on; default `manage`. */
  readonly karpenterKinds?: KarpenterKinds;
  /** Clock of the leases: the Lambda runtime's (wall time in AWS, virtual in the simulated cloud). */
  readonly leaseClock?: Clock;
  /** Waits (lease retries of the drains' provisioning runs) on the same time as `leaseClock`. */
  readonly sleep?: (ms: number) => Promise<void>;
  /** Wall milliseconds left in the invocation. */
  readonly remainingMs?: () => number;
  /** The identity of this joiner's instances (see {@link SweepDeps.owner}); default: the table's name. */
  readonly owner?: string;
  /** What consolidation remembers between the instance's invocations (see DisruptionDeps). */
  readonly consolidationMemory?: ConsolidationMemory;
  /** The handler settings, for the state table's name. */
  readonly settings?: { readonly tableName?: string };
}

/**
 * The sweep's deps from the ports; the cluster configuration (NodePools, NodeClasses) is read
 * from the API server at most once per call of this function.
 */
export function sweepDepsFrom(ports: SweepPorts, settings?: Partial<SweepSettings>): SweepDeps {
  const lifecycle = lifecycleDeps(ports, () => readClusterConfig(ports.cluster, ports.karpenterKinds));
  return {
    ...lifecycle,
    cluster: ports.cluster,
    store: ports.store,
    cloud: ports.cloud,
    events: ports.events,
    catalog: ports.catalog,
    ...(ports.nodeRoles ? { nodeRoles: ports.nodeRoles } : {}),
    ...(ports.leaseClock ? { leaseClock: ports.leaseClock } : {}),
    ...(ports.sleep ? { sleep: ports.sleep } : {}),
    ...(ports.remainingMs ? { remainingMs: ports.remainingMs } : {}),
    ...(ports.consolidationMemory ? { consolidationMemory: ports.consolidationMemory } : {}),
    settings,
    ...(ports.karpenterKinds ? { karpenterKinds: ports.karpenterKinds } : {}),
    ...ownerOf(ports),
  };
}

/** The owner identity of `ports`: given, else the state table's name (when it is configured). */
function ownerOf(ports: SweepPorts): { owner?: string } {
  if (ports.owner) return { owner: ports.owner };
  try {
    const name = ports.settings?.tableName;
    return name ? { owner: name } : {};
  } catch {
    return {};
  }
}
