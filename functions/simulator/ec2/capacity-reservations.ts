/**
 * Capacity reservations of the simulated account: On-Demand Capacity Reservations (`default`) and
 * Capacity Blocks for ML (`capacity-block`). A launch that targets one is checked as EC2 checks it
 * (the reservation exists and is active, the instance type, zone and market type match, an
 * instance is still available) and takes one instance of it until the instance terminates. A
 * reservation past its end date is `expired`; EC2 begins terminating the instances of a capacity
 * block 30 minutes before its end.
 */
import type { Ec2Context } from './context.js';
import { Ec2Error } from './ec2-error.js';
import type { Ec2Instance } from './ec2-state.js';
import { terminateInstance } from './instance-lifecycle.js';

/** A capacity reservation as a scenario declares it. */
export interface CapacityReservationSpec {
  /** `cr-` then 17 lowercase hexadecimal characters, as EC2 names them. */
  readonly id: string;
  readonly instanceType: string;
  readonly availabilityZone: string;
  /** Instances the reservation holds. */
  readonly count: number;
  /** Default `default` (an ODCR). */
  readonly reservationType?: 'default' | 'capacity-block';
  /** Default `targeted`: only launches that name the reservation use it. */
  readonly instanceMatchCriteria?: 'open' | 'targeted';
  /** Virtual epoch milliseconds; absent: no end date (`unlimited`). A capacity block has one. */
  readonly endDate?: number;
  /** Virtual epoch milliseconds; default the start of the simulation. */
  readonly startDate?: number;
  readonly tags?: Readonly<Record<string, string>>;
  /** Default the simulated account (a reservation shared from another account has its owner's id). */
  readonly ownerId?: string;
}

/** A capacity reservation as the simulated EC2 holds it. */
export interface Ec2CapacityReservation {
  readonly id: string;
  readonly instanceType: string;
  readonly availabilityZone: string;
  /** Changed by {@link modifyCapacityReservation}. */
  totalInstanceCount: number;
  readonly reservationType: 'default' | 'capacity-block';
  readonly instanceMatchCriteria: 'open' | 'targeted';
  readonly startDate: number;
  /** Changed by {@link modifyCapacityReservation}. */
  endDate?: number;
  readonly tags: Record<string, string>;
  readonly ownerId: string;
  /** Instances running in it. */
  readonly instanceIds: Set<string>;
}

/** EC2 begins terminating a capacity block's instances this long before its end date. */
export const CAPACITY_BLOCK_RECLAIM_MS = 30 * 60_000;

/** Validates and adds the reservations; a capacity block's instances are reclaimed before its end. */
export function addCapacityReservations(ctx: Ec2Context, specs: readonly CapacityReservationSpec[]): void {
  for (const [i, spec] of specs.entries()) {
    const where = `capacityReservations[${i}]`;
    if (!/^cr-[0-9a-f]{17}$/.test(spec.id))
      throw new Error(`${where}.id: '${spec.id}' is not a capacity reservation id (cr- and 17 hex digits)`);
    if (ctx.state.capacityReservations.has(spec.id))
      throw new Error(`${where}.id: '${spec.id}' is declared twice`);
    const type = ctx.state.instanceTypes.get(spec.instanceType);
    if (!type)
      throw new Error(
        `${where}.instanceType: '${spec.instanceType}' is not an instance type of ${ctx.region}`,
      );
    if (!ctx.state.zoneId(spec.availabilityZone))
      throw new Error(`${where}.availabilityZone: '${spec.availabilityZone}' is not a zone of ${ctx.region}`);
    if (!Number.isInteger(spec.count) || spec.count < 1)
      throw new Error(`${where}.count: must be a positive integer, got ${spec.count}`);
    const reservationType = spec.reservationType ?? 'default';
    if (reservationType === 'capacity-block' && spec.endDate === undefined)
      throw new Error(`${where}.endDate: a capacity block has an end date`);
    const reservation: Ec2CapacityReservation = {
      id: spec.id,
      instanceType: spec.instanceType,
      availabilityZone: spec.availabilityZone,
      totalInstanceCount: spec.count,
      reservationType,
      instanceMatchCriteria: spec.instanceMatchCriteria ?? 'targeted',
      startDate: spec.startDate ?? ctx.clock.now(),
      ...(spec.endDate === undefined ? {} : { endDate: spec.endDate }),
      tags: { ...(spec.tags ?? {}) },
      ownerId: spec.ownerId ?? ctx.state.topology.accountId,
      instanceIds: new Set(),
    };
    ctx.state.capacityReservations.set(spec.id, reservation);
    armReclaim(ctx, reservation);
  }
}

/** What {@link modifyCapacityReservation} changes (ModifyCapacityReservation's InstanceCount and EndDate). */
export interface CapacityReservationChange {
  readonly count?: number;
  /** Virtual epoch ms. For a Capacity Block this is an extension: EC2 reclaims 30 minutes before the new end. */
  readonly endDate?: number;
}

/**
 * Changes a reservation's instance count or end, as ModifyCapacityReservation does (a Capacity
 * Block's end moves by an extension). Instances already running stay; a smaller count only
 * leaves less to launch.
 */
export function modifyCapacityReservation(
  ctx: Ec2Context,
  id: string,
  change: CapacityReservationChange,
): void {
  const r = ctx.state.capacityReservations.get(id);
  if (!r) throw new Error(`capacity reservation ${id} does not exist`);
  if (change.count !== undefined) {
    if (!Number.isInteger(change.count) || change.count < 1)
      throw new Error(`count: must be a positive integer, got ${change.count}`);
    r.totalInstanceCount = change.count;
  }
  if (change.endDate !== undefined) {
    if (change.endDate <= ctx.clock.now()) throw new Error(`the new end of ${id} is not in the future`);
    r.endDate = change.endDate;
    armReclaim(ctx, r);
  }
}

/** A Capacity Block's instances are reclaimed 30 minutes before its end (the end it has then). */
function armReclaim(ctx: Ec2Context, r: Ec2CapacityReservation): void {
  const end = r.endDate;
  if (r.reservationType !== 'capacity-block' || end === undefined) return;
  ctx.clock.setTimeout(
    () => {
      if (r.endDate === end) reclaimCapacityBlock(ctx, r);
    },
    Math.max(0, end - CAPACITY_BLOCK_RECLAIM_MS - ctx.clock.now()),
  );
}

/** `active` until the end date, then `expired` (EC2's states for a reservation in use). */
export function reservationState(
  ctx: Ec2Context,
  r: Ec2CapacityReservation,
): 'active' | 'expired' | 'scheduled' {
  const now = ctx.clock.now();
  if (r.startDate > now) return 'scheduled';
  if (r.endDate !== undefined && r.endDate <= now) return 'expired';
  return 'active';
}

/** Instances the reservation can still take. */
export function availableInstanceCount(ctx: Ec2Context, r: Ec2CapacityReservation): number {
  if (reservationState(ctx, r) !== 'active') return 0;
  return Math.max(0, r.totalInstanceCount - r.instanceIds.size);
}

/** What a launch asks of a reservation. */
export interface ReservationTarget {
  readonly capacityReservationId: string;
  /** `capacity-block` when the launch's market type is `capacity-block`. */
  readonly marketType?: string;
}

/**
 * The reservation a launch of `instanceType` in `zone` goes into, checked as EC2 checks it; throws
 * the Ec2Error EC2 gives (CreateFleet reports it for the override).
 */
export function checkReservation(
  ctx: Ec2Context,
  target: ReservationTarget,
  instanceType: string,
  zone: string,
): Ec2CapacityReservation {
  const id = target.capacityReservationId;
  const r = ctx.state.capacityReservations.get(id);
  if (!r)
    throw new Ec2Error(
      'InvalidCapacityReservationId.NotFound',
      `The capacity reservation ID '${id}' does not exist`,
    );
  const state = reservationState(ctx, r);
  if (state !== 'active')
    throw new Ec2Error(
      'InvalidCapacityReservationId.Malformed',
      `The capacity reservation '${id}' is ${state}, not active`,
    );
  if (r.reservationType === 'capacity-block' && target.marketType !== 'capacity-block')
    throw new Ec2Error(
      'InvalidParameterCombination',
      `Capacity reservation '${id}' is a Capacity Block: launch it with the market type capacity-block`,
    );
  if (r.reservationType !== 'capacity-block' && target.marketType === 'capacity-block')
    throw new Ec2Error('InvalidParameterCombination', `Capacity reservation '${id}' is not a Capacity Block`);
  if (r.instanceType !== instanceType)
    throw new Ec2Error(
      'InvalidParameterValue',
      `The instance type ${instanceType} does not match the instance type ${r.instanceType} of capacity reservation '${id}'`,
    );
  if (r.availabilityZone !== zone)
    throw new Ec2Error(
      'InvalidParameterValue',
      `The Availability Zone ${zone} does not match the Availability Zone ${r.availabilityZone} of capacity reservation '${id}'`,
    );
  if (availableInstanceCount(ctx, r) <= 0)
    throw new Ec2Error(
      'ReservationCapacityExceeded',
      `The requested number of instances exceeds the available instance count of capacity reservation '${id}'`,
    );
  return r;
}

/** The instance now runs in the reservation. */
export function takeReservation(r: Ec2CapacityReservation, instance: Ec2Instance): void {
  r.instanceIds.add(instance.instanceId);
}

/** A terminated instance gives its reservation's capacity back. */
export function releaseReservation(ctx: Ec2Context, instance: Ec2Instance): void {
  if (!instance.capacityReservationId) return;
  ctx.state.capacityReservations.get(instance.capacityReservationId)?.instanceIds.delete(instance.instanceId);
}

/** Terminates the live instances of a capacity block (30 minutes before its end, as EC2 does). */
function reclaimCapacityBlock(ctx: Ec2Context, r: Ec2CapacityReservation): void {
  for (const id of [...r.instanceIds]) {
    const instance = ctx.state.instances.get(id);
    if (!instance) continue;
    terminateInstance(ctx, instance, {
      code: 'Server.ScheduledStop',
      message: `Server.ScheduledStop: Capacity Block ${r.id} is ending`,
    });
  }
}
