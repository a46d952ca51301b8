/**
 * Where a node's EFA interfaces go, and whether they fit beside the NodeClass's Multus interfaces.
 *
 * As Karpenter's AWS provider does when a pod requests `vpc.amazonaws.com/efa`, a node gets as
 * many EFA interfaces as its type takes (`maxEfaInterfaces`), one per network card: the first on
 * network card 0 at device index 0 replaces the primary interface (type `efa`: EFA with ENA, it
 * keeps the node's IP address), each next one on network card i at device index 1 (type
 * `efa-only`, which takes no IP address, as AWS recommends for the secondary cards of p5 and
 * later types). Multus interfaces keep their own (network card, device index): one that sits on
 * an EFA slot, or a network card that would hold more interfaces than the type allows, makes the
 * type unusable for EFA pods with this NodeClass ({@link efaConflict}).
 */
import { defaultCardEnis } from '../catalog/allocatable.js';
import type { InstanceType } from '../model/instance-type.js';

/** The EC2 interface types joiner launches: the primary EFA interface, and the secondary ones. */
export type EfaInterfaceType = 'efa' | 'efa-only';

/** One EFA interface's place. */
export interface EfaSlot {
  readonly networkCardIndex: number;
  readonly deviceIndex: number;
  readonly interfaceType: EfaInterfaceType;
}

/** A Multus interface's place (NodeClass `multusInterfaces[]`). */
export interface InterfacePlace {
  readonly networkCardIndex: number;
  readonly deviceIndex: number;
}

/** The places of `count` EFA interfaces: card 0 device 0 (`efa`), then card i device 1 (`efa-only`). */
export function efaSlots(count: number): EfaSlot[] {
  return Array.from({ length: Math.max(0, count) }, (_, i) =>
    i === 0
      ? { networkCardIndex: 0, deviceIndex: 0, interfaceType: 'efa' as const }
      : { networkCardIndex: i, deviceIndex: 1, interfaceType: 'efa-only' as const },
  );
}

/**
 * The first Multus interface that sits where one of `count` EFA interfaces goes, as a sentence
 * naming both; undefined when none does.
 */
export function efaSlotConflict(
  count: number,
  multus: readonly InterfacePlace[],
  typeName = 'the instance type',
): string | undefined {
  const slots = efaSlots(count);
  for (const [i, m] of multus.entries()) {
    const slot = slots.find(
      (s) => s.networkCardIndex === m.networkCardIndex && s.deviceIndex === m.deviceIndex,
    );
    if (slot)
      return `multusInterfaces[${i}] (network card ${m.networkCardIndex}, device index ${m.deviceIndex}) takes the place of the ${slot.interfaceType} interface ${typeName} needs on network card ${slot.networkCardIndex}`;
  }
  return undefined;
}

/**
 * Why a node of `type` cannot have its EFA interfaces beside these Multus interfaces, or
 * undefined when they fit (or the type has no EFA): a Multus interface on an EFA slot, on a
 * network card the type lacks, or a network card with more interfaces than it takes.
 */
export function efaConflict(
  type: Pick<InstanceType, 'name' | 'maxEnis' | 'networkCards' | 'maxEfaInterfaces'>,
  multus: readonly InterfacePlace[],
): string | undefined {
  const count = type.maxEfaInterfaces ?? 0;
  if (count === 0) return undefined;
  const slotConflict = efaSlotConflict(count, multus, type.name);
  if (slotConflict) return slotConflict;
  const cards = type.networkCards ?? 1;
  const perCard = new Map<number, number>();
  for (const s of efaSlots(count))
    perCard.set(s.networkCardIndex, (perCard.get(s.networkCardIndex) ?? 0) + 1);
  for (const [i, m] of multus.entries()) {
    if (m.networkCardIndex >= cards)
      return `multusInterfaces[${i}] (network card ${m.networkCardIndex}, device index ${m.deviceIndex}) is on a network card ${type.name} does not have (it has ${cards})`;
    perCard.set(m.networkCardIndex, (perCard.get(m.networkCardIndex) ?? 0) + 1);
  }
  const limit = defaultCardEnis(type);
  for (const [card, n] of [...perCard].sort((a, b) => a[0] - b[0])) {
    if (n > limit)
      return `network card ${card} of ${type.name} would hold ${n} interfaces (EFA and Multus), it takes ${limit}`;
  }
  return undefined;
}
