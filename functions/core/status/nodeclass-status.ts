/**
 * An EC2NodeClass's status as Karpenter writes it: the subnets, security groups and AMIs its
 * selector terms resolve to, and conditions `ValidationSucceeded` (True: the object passed joiner's
 * validation; an invalid one is reported by invalid-config.ts instead), `SubnetsReady`,
 * `SecurityGroupsReady`, `AMIsReady` and `Ready`, with the reason when a selector matches nothing;
 * the capacity reservations and `CapacityReservationsReady` (capacity-reservation-status.ts).
 * `Ready` is also False while its launches fail for a reason of its own (an unusable KMS key...).
 */
import type { CapacityReservation } from '../model/capacity-reservation.js';
import type { NodeClassResolution } from '../ports/cloud-provider.js';
import { capacityReservationStatus } from './capacity-reservation-status.js';
import { type Condition, condition } from './conditions.js';

/** Whether a NodeClass resolves, and if not, why (what the NodePools' NodeClassReady repeats). */
export type NodeClassReadiness =
  | { readonly ready: true; readonly resolution: NodeClassResolution }
  | { readonly ready: false; readonly reason: string; readonly message: string };

/** Reads what failed from the resolution error ("subnetSelectorTerms match no subnet", ...). */
export function readinessOf(outcome: NodeClassResolution | Error): NodeClassReadiness {
  if (!(outcome instanceof Error)) return { ready: true, resolution: outcome };
  const message = outcome.message;
  const reason = /subnet/i.test(message)
    ? 'SubnetsNotFound'
    : /security ?group/i.test(message)
      ? 'SecurityGroupsNotFound'
      : /ami|image/i.test(message)
        ? 'AMINotFound'
        : 'ResolutionFailed';
  return { ready: false, reason, message };
}

const CHECKS = [
  ['SubnetsReady', 'SubnetsNotFound'],
  ['SecurityGroupsReady', 'SecurityGroupsNotFound'],
  ['AMIsReady', 'AMINotFound'],
] as const;

/**
 * The `status` of the NodeClass; with `reservations` (what its capacityReservationSelectorTerms
 * select, or the error reading them) also `capacityReservations` and `CapacityReservationsReady`.
 */
export function nodeClassStatus(
  readiness: NodeClassReadiness,
  now: number,
  reservations?: readonly CapacityReservation[] | Error,
  launchFailure?: { readonly reason: string; readonly message: string },
): Record<string, unknown> {
  const status = withLaunchFailure(resolutionStatus(readiness, now), launchFailure, now);
  if (reservations === undefined) return status;
  const reserved = capacityReservationStatus(reservations, now);
  const conditions = status.conditions as Condition[];
  const ready = conditions.pop() as Condition;
  return {
    ...status,
    ...(reserved.capacityReservations ? { capacityReservations: reserved.capacityReservations } : {}),
    conditions: [...conditions, reserved.condition, ready],
  };
}

function resolutionStatus(readiness: NodeClassReadiness, now: number): Record<string, unknown> {
  const checks: Condition[] = CHECKS.map(([type, failing]) =>
    !readiness.ready && (readiness.reason === failing || readiness.reason === 'ResolutionFailed')
      ? condition(type, 'False', readiness.reason, readiness.message, now)
      : readiness.ready
        ? condition(type, 'True', type, '', now)
        : condition(type, 'Unknown', 'NotChecked', 'resolution stopped at an earlier selector', now),
  );
  const conditions = [condition('ValidationSucceeded', 'True', 'ValidationSucceeded', '', now), ...checks];
  conditions.push(
    readiness.ready
      ? condition('Ready', 'True', 'Ready', '', now)
      : condition('Ready', 'False', readiness.reason, readiness.message, now),
  );
  if (!readiness.ready) return { conditions };
  const r = readiness.resolution;
  return {
    subnets: r.subnetIds.map((id) => ({ id })),
    securityGroups: r.securityGroupIds.map((id) => ({ id })),
    amis: r.imageIds.map((id) => ({ id })),
    zones: [...r.zones],
    conditions,
  };
}

/**
 * A resolved NodeClass whose launches fail (EC2 terminates its instances during launch:
 * nodeclass-launch-backoff.ts) is not Ready, with the reason; what it resolves to stays.
 */
function withLaunchFailure(
  status: Record<string, unknown>,
  failure: { readonly reason: string; readonly message: string } | undefined,
  now: number,
): Record<string, unknown> {
  const conditions = status.conditions as Condition[];
  const ready = conditions[conditions.length - 1];
  if (!failure || ready.status !== 'True') return status;
  return {
    ...status,
    conditions: [
      ...conditions.slice(0, -1),
      condition('Ready', 'False', failure.reason, failure.message, now),
    ],
  };
}
