export type { Clock } from './clock.js';
export { systemClock } from './clock.js';
export type {
  CloudInstance,
  CloudProvider,
  FleetError,
  LaunchInput,
  LaunchOutcome,
} from './cloud-provider.js';
export type {
  ClusterApi,
  ClusterEvent,
  ConfigDocument,
  EvictionResult,
  NodePatch,
} from './cluster-api.js';
export type { ClusterStatusWriter, ConfigObjectRef, MirroredNodeClaim } from './cluster-status.js';
export type { EventPublisher, JoinerEvent, TimerScheduler } from './event-publisher.js';
export type { Log } from './log.js';
export { silentLog } from './log.js';
export type {
  Lease,
  OfferingKey,
  StateStore,
  UnavailableOffering,
} from './state-store.js';
export { ConflictError, UNAVAILABLE_OFFERING_TTL_MS } from './state-store.js';
