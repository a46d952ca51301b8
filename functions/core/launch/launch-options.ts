import type { CapacityType } from '../model/instance-type.js';
import type { Requirement } from '../model/requirement.js';
import type { LaunchAttempt, NodeClaim, NodeClaimOption } from '../nodeclaim/nodeclaim.js';
import type { OfferingKey } from '../ports/state-store.js';

/** The most overrides joiner puts in one CreateFleet request. */
export const MAX_FLEET_OVERRIDES = 60;

/** Key of an offering, for sets. */
export function offeringKey(o: OfferingKey): string {
  return `${o.instanceType}|${o.zone}|${o.capacityType}`;
}

/** The options of one attempt: one capacity type, available ones only, ranking kept. */
export interface AttemptOptions {
  readonly capacityType: CapacityType;
  readonly options: readonly NodeClaimOption[];
}

/**
 * Picks what the next CreateFleet attempt tries: the claim's options minus unavailable offerings,
 * of one capacity type, ranking kept. The claim's preferred capacity type (that of its first
 * option: spot when the pool allows and offers it) while any of its options remains — each
 * allowed zone of an instance type is its own option, so InsufficientInstanceCapacity in one zone
 * leaves the type's other zones — then the other capacity type (the spot -> on-demand fallback
 * when the pool allows both). Undefined when nothing remains. `planLaunch` keeps at most
 * {@link MAX_FLEET_OVERRIDES} of an attempt's options in the request.
 */
export function nextAttemptOptions(
  options: readonly NodeClaimOption[],
  unavailable: readonly OfferingKey[],
  requirements: readonly Requirement[] = [],
): AttemptOptions | undefined {
  const blocked = new Set(unavailable.map(offeringKey));
  const open = options.filter((o) => !blocked.has(offeringKey(o)));
  for (const capacityType of capacityTypeOrder(options)) {
    const ofType = sameReservationType(open.filter((o) => o.capacityType === capacityType));
    if (ofType.length > 0 && !minValuesMissed(ofType, requirements)) return { capacityType, options: ofType };
  }
  return undefined;
}

/**
 * A reserved attempt launches into one kind of reservation: CreateFleet cannot mix Capacity
 * Blocks (target capacity type `capacity-block`) with ODCRs (`on-demand`). The kind of the
 * cheapest option is kept, a Capacity Block winning a tie, as Karpenter chooses.
 */
function sameReservationType(options: readonly NodeClaimOption[]): NodeClaimOption[] {
  if (options.length === 0 || options[0].capacityType !== 'reserved') return [...options];
  const cheapest = Math.min(...options.map((o) => o.price));
  const kind = options.some((o) => o.price === cheapest && o.reservationType === 'capacity-block')
    ? 'capacity-block'
    : 'default';
  return options.filter((o) => (o.reservationType ?? 'default') === kind);
}

const INSTANCE_TYPE = 'node.kubernetes.io/instance-type';

/**
 * Why `options` (one attempt) miss a `minValues` requirement of the claim, or undefined: the
 * distinct values of the requirement's label among them (the instance types for
 * `node.kubernetes.io/instance-type`, the options' `labels` otherwise; a claim planned before
 * options carried labels is not checked on other keys).
 */
export function minValuesMissed(
  options: readonly NodeClaimOption[],
  requirements: readonly Requirement[],
): string | undefined {
  for (const r of requirements) {
    if (r.minValues === undefined) continue;
    const byType = r.key === INSTANCE_TYPE;
    if (!byType && options.every((o) => o.labels === undefined)) continue;
    const seen = new Set<string>();
    for (const o of options) {
      const v = byType ? o.instanceType : o.labels?.[r.key];
      if (v !== undefined) seen.add(v);
    }
    if (seen.size < r.minValues)
      return `minValues ${r.minValues} of ${r.key}: only ${seen.size} value(s) among the options still available`;
  }
  return undefined;
}

/**
 * Reserved first when the claim has reserved options (Karpenter: reserved, spot, on-demand), then
 * the claim's preferred capacity type (its first other option's), then the other one.
 */
function capacityTypeOrder(options: readonly NodeClaimOption[]): readonly AttemptOptions['capacityType'][] {
  const preferred = options.find((o) => o.capacityType !== 'reserved')?.capacityType;
  const order: AttemptOptions['capacityType'][] =
    preferred === 'on-demand' ? ['on-demand', 'spot'] : ['spot', 'on-demand'];
  return options[0]?.capacityType === 'reserved' ? ['reserved', ...order] : order;
}

/** The record of an attempt kept on its claim (see {@link LaunchAttempt}). */
export function attemptRecord(attempt: AttemptOptions): LaunchAttempt {
  return { capacityType: attempt.capacityType, offerings: attempt.options.map(offeringKey) };
}

/**
 * The options of the claim's latest recorded attempt, in the order it sent them; undefined when
 * none was recorded (a claim written before attempts were recorded) or its offerings are unknown.
 */
export function recordedAttempt(claim: NodeClaim): AttemptOptions | undefined {
  const recorded = claim.lastAttempt;
  if (!recorded || recorded.offerings.length === 0) return undefined;
  const byKey = new Map(claim.options.map((o) => [offeringKey(o), o]));
  const options = recorded.offerings.map((key) => byKey.get(key));
  if (options.some((o) => o === undefined)) return undefined;
  return { capacityType: recorded.capacityType, options: options as NodeClaimOption[] };
}

/** The CreateFleet ClientToken of attempt `attempt` of a claim (<= 64 ASCII characters, stable). */
export function clientToken(launchToken: string, attempt: number): string {
  const token = `${launchToken}-${attempt}`;
  if (token.length <= 64) return token;
  let h = 0x811c9dc5;
  for (const ch of launchToken) h = Math.imul(h ^ ch.charCodeAt(0), 0x01000193) >>> 0;
  return `${launchToken.slice(0, 40)}-${h.toString(16).padStart(8, '0')}-${attempt}`;
}
