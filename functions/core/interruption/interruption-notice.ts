/**
 * Reads the EC2 and AWS Health events the interruption queue delivers (the EventBridge envelope
 * with the services' own detail shapes) into one small notice per instance.
 */
import * as z from 'zod';
import { AWS_DETAIL_TYPES, INTERRUPTING_INSTANCE_STATES } from '../../shared/event-rules.js';

/** What happens to an instance, as joiner acts on it. */
export type InterruptionKind = 'spot-interruption' | 'rebalance' | 'state-change' | 'scheduled-change';

/** One instance an AWS event is about. */
export interface InterruptionNotice {
  readonly kind: InterruptionKind;
  readonly instanceId: string;
  /** The new instance state (state-change only). */
  readonly state?: (typeof INTERRUPTING_INSTANCE_STATES)[number];
  /** The event id, for logs. */
  readonly eventId?: string;
  /** When a scheduled change starts (epoch ms), if the event says. */
  readonly startsAt?: number;
}

const instanceId = z.string().regex(/^i-[0-9a-zA-Z]+$/, 'an EC2 instance id (i-...)');
const envelope = z.object({ id: z.string().optional(), 'detail-type': z.string(), detail: z.unknown() });
const spotDetail = z.object({ 'instance-id': instanceId });
const stateDetail = z.object({ 'instance-id': instanceId, state: z.string() });
const healthDetail = z.object({
  service: z.string(),
  eventTypeCategory: z.string(),
  startTime: z.string().optional(),
  affectedEntities: z.array(z.object({ entityValue: z.string() })).default([]),
});

/** Thrown for an event joiner cannot read; names what was wrong. */
export class InterruptionEventError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'InterruptionEventError';
  }
}

function parse<T>(schema: z.ZodType<T>, value: unknown, what: string): T {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const path = issue?.path.join('.') || '(root)';
  throw new InterruptionEventError(`${what}: ${path}: ${issue?.message ?? 'invalid'}`);
}

/**
 * The notices of one event (a Health event can name several instances). Detail-types and states
 * joiner does not act on give an empty list; a malformed event throws
 * {@link InterruptionEventError}.
 */
export function readInterruptionEvent(event: unknown): InterruptionNotice[] {
  const env = parse(envelope, event, 'interruption event');
  const type = env['detail-type'];
  const eventId = env.id;
  const what = `"${type}" event ${eventId ?? ''}`.trim();
  switch (type) {
    case AWS_DETAIL_TYPES.spotInterruption:
      return [
        {
          kind: 'spot-interruption',
          instanceId: parse(spotDetail, env.detail, what)['instance-id'],
          eventId,
        },
      ];
    case AWS_DETAIL_TYPES.rebalanceRecommendation:
      return [{ kind: 'rebalance', instanceId: parse(spotDetail, env.detail, what)['instance-id'], eventId }];
    case AWS_DETAIL_TYPES.instanceStateChange: {
      const detail = parse(stateDetail, env.detail, what);
      const state = INTERRUPTING_INSTANCE_STATES.find((s) => s === detail.state);
      return state ? [{ kind: 'state-change', instanceId: detail['instance-id'], state, eventId }] : [];
    }
    case AWS_DETAIL_TYPES.healthEvent: {
      const detail = parse(healthDetail, env.detail, what);
      if (detail.service !== 'EC2' || detail.eventTypeCategory !== 'scheduledChange') return [];
      const startsAt = detail.startTime === undefined ? Number.NaN : Date.parse(detail.startTime);
      return detail.affectedEntities
        .map((e) => e.entityValue)
        .filter((id) => instanceId.safeParse(id).success)
        .map((id) => ({
          kind: 'scheduled-change' as const,
          instanceId: id,
          eventId,
          ...(Number.isNaN(startsAt) ? {} : { startsAt }),
        }));
    }
    default:
      return [];
  }
}
