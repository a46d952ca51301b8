import type { NodeClaimOption } from '../nodeclaim/nodeclaim.js';
import type { FleetError } from '../ports/cloud-provider.js';
import type { OfferingKey } from '../ports/state-store.js';
import { offeringKey } from './launch-options.js';
import { isInstanceProfilePropagationError } from './node-role.js';

/** Error codes that mean "this capacity is not there now: try other offerings". */
export const CAPACITY_ERROR_CODES = [
  'InsufficientInstanceCapacity',
  'MaxSpotInstanceCountExceeded',
  'UnfulfillableCapacity',
  'InsufficientFreeAddressesInSubnet',
  'VcpuLimitExceeded',
  'ReservationCapacityExceeded',
] as const;

/** Offerings to mark unavailable, grouped by the error that caused it. */
export interface ClassifiedFleetErrors {
  readonly unavailable: readonly { readonly offering: OfferingKey; readonly reason: string }[];
  /** Errors that no other offering will fix (bad parameters, permissions...). */
  readonly fatal: readonly FleetError[];
  /**
   * Errors the same request fixes a little later: the instance profile is not visible to EC2 yet
   * (IAM eventual consistency after joiner created it).
   */
  readonly retryable: readonly FleetError[];
}

/**
 * Turns CreateFleet errors into offerings to mark unavailable (3 minutes):
 * InsufficientInstanceCapacity / UnfulfillableCapacity -> that instance type in that zone (or,
 * without an override, every attempted offering in the zone); InsufficientFreeAddressesInSubnet
 * -> every attempted offering in that zone; MaxSpotInstanceCountExceeded -> every attempted spot
 * offering; VcpuLimitExceeded -> every attempted offering of that capacity type;
 * ReservationCapacityExceeded (the capacity reservation is full) and a reservation EC2 no longer
 * has (InvalidCapacityReservationId.*) -> that reserved offering, so the launch falls back to
 * the other capacity types, as Karpenter does. An instance
 * profile EC2 does not know yet (InvalidParameterValue "Invalid IAM Instance Profile") is
 * retryable. Other codes are fatal.
 */
export function classifyFleetErrors(
  errors: readonly FleetError[],
  attempted: readonly NodeClaimOption[],
): ClassifiedFleetErrors {
  const marks = new Map<string, { offering: OfferingKey; reason: string }>();
  const fatal: FleetError[] = [];
  const retryable: FleetError[] = [];
  const mark = (options: readonly NodeClaimOption[], reason: string) => {
    for (const o of options) {
      const offering = { instanceType: o.instanceType, zone: o.zone, capacityType: o.capacityType };
      if (!marks.has(offeringKey(offering))) marks.set(offeringKey(offering), { offering, reason });
    }
  };
  for (const error of errors) {
    const ofType = attempted.filter((o) => !error.capacityType || o.capacityType === error.capacityType);
    const inZone = ofType.filter((o) => !error.zone || o.zone === error.zone);
    switch (error.code) {
      case 'InsufficientInstanceCapacity':
      case 'UnfulfillableCapacity':
      case 'ReservationCapacityExceeded':
        mark(
          error.instanceType ? inZone.filter((o) => o.instanceType === error.instanceType) : inZone,
          error.code,
        );
        break;
      case 'InsufficientFreeAddressesInSubnet':
        mark(inZone, error.code);
        break;
      case 'MaxSpotInstanceCountExceeded':
        mark(
          attempted.filter((o) => o.capacityType === 'spot'),
          error.code,
        );
        break;
      case 'VcpuLimitExceeded':
        mark(ofType, error.code);
        break;
      default:
        if (error.code.startsWith('InvalidCapacityReservationId.') && error.instanceType)
          mark(
            inZone.filter((o) => o.instanceType === error.instanceType && o.capacityType === 'reserved'),
            error.code,
          );
        else if (isInstanceProfilePropagationError(error)) retryable.push(error);
        else fatal.push(error);
    }
  }
  return { unavailable: [...marks.values()], fatal, retryable };
}
