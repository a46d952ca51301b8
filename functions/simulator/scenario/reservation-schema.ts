/**
 * Capacity reservations in a scenario file: the account's On-Demand Capacity Reservations and
 * Capacity Blocks for ML (top-level `capacityReservations`), and the `capacityReservation` step
 * that adds one or changes one (its instance count or its end, as ModifyCapacityReservation does).
 * Ends are durations from the moment they are declared (the scenario's start, or the step): the
 * virtual clock starts at the wall clock, so a calendar date would mean something else each run.
 */
import * as z from 'zod';
import { isDuration } from '../../core/model/config/duration.js';

const duration = z.union([z.string(), z.number()]).refine((v) => isDuration(v) && v !== 'Never', {
  message: 'expected a duration such as "90m" or "2h"',
});

const reservationId = z
  .string()
  .regex(/^cr-[0-9a-f]{17}$/, "expected a capacity reservation id: 'cr-' and 17 hexadecimal digits");

/** One reservation as the account holds it when the scenario starts (or a step adds it). */
export const capacityReservationSchema = z
  .object({
    id: reservationId,
    instanceType: z.string().min(1),
    availabilityZone: z.string().min(1),
    /** Instances the reservation holds. */
    count: z.number().int().positive(),
    /** `default` (an ODCR) or `capacity-block` (a Capacity Block for ML, which needs an end). */
    type: z.enum(['default', 'capacity-block']).default('default'),
    /** `targeted` (only launches that name it) or `open`. */
    instanceMatchCriteria: z.enum(['open', 'targeted']).default('targeted'),
    /** When it ends, from the moment it is declared; absent: no end date. */
    endsAfter: duration.optional(),
    tags: z.record(z.string(), z.string()).default({}),
    /** The owning account (12 digits); default the simulated account (another: shared with it). */
    ownerId: z
      .string()
      .regex(/^\d{12}$/, 'expected a 12-digit AWS account id')
      .optional(),
  })
  .strict()
  .superRefine((r, ctx) => {
    if (r.type === 'capacity-block' && r.endsAfter === undefined)
      ctx.addIssue({
        code: 'custom',
        path: ['endsAfter'],
        message: 'a capacity block has an end: give endsAfter',
      });
  });

/** A change of a declared reservation (ModifyCapacityReservation: the instance count, the end). */
export const capacityReservationChangeSchema = z
  .object({
    id: reservationId,
    count: z.number().int().positive().optional(),
    endsAfter: duration.optional(),
  })
  .strict()
  .refine((c) => c.count !== undefined || c.endsAfter !== undefined, {
    message: 'a change gives count, endsAfter or both (or a whole reservation with instanceType to add one)',
  });

/** The step: a whole reservation (added) or `{id, count?, endsAfter?}` (a change of a declared one). */
export const capacityReservationStep = z.custom<unknown>().transform((value, ctx) => {
  const adds = typeof value === 'object' && value !== null && 'instanceType' in value;
  const schema: z.ZodType = adds ? capacityReservationSchema : capacityReservationChangeSchema;
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data as CapacityReservationDecl | CapacityReservationChange;
  for (const issue of parsed.error.issues) ctx.addIssue({ ...issue, code: 'custom', message: issue.message });
  return z.NEVER;
});

export type CapacityReservationDecl = z.infer<typeof capacityReservationSchema>;
export type CapacityReservationChange = z.infer<typeof capacityReservationChangeSchema>;
/** A validated `capacityReservation` step. */
export type CapacityReservationStep = CapacityReservationDecl | CapacityReservationChange;
