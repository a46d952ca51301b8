import type { DocumentSource } from './node-pool.js';
import type { Requirement } from './requirement.js';

/**
 * How a NodeOverlay changes an offering's price (Karpenter v1.7 `price` / `priceAdjustment`):
 * `set` replaces the price, `add` adds a signed amount in USD per hour, `percent` scales the price
 * by (1 + value / 100).
 */
export type PriceChange =
  | { readonly kind: 'set'; readonly value: number }
  | { readonly kind: 'add'; readonly value: number }
  | { readonly kind: 'percent'; readonly value: number };

/**
 * joiner's internal NodeOverlay (`karpenter.sh/v1alpha1` NodeOverlay): a price change and extra
 * extended resources for the instance types (and offerings) its requirements select, in the
 * NodePools whose labels its requirements allow. Heavier overlays win; equal weights are taken in
 * reverse alphabetical order of their names, as Karpenter orders them.
 */
export interface NodeOverlay {
  readonly name: string;
  readonly source: DocumentSource;
  /** What the overlay selects: instance type labels, NodePool labels, zone and capacity type. */
  readonly requirements: readonly Requirement[];
  readonly price?: PriceChange;
  /** Extended resources added to (or replacing on) the selected instance types' capacity. */
  readonly capacity: Readonly<Record<string, number>>;
  /** 0 when the document sets none. */
  readonly weight: number;
  /** The overlay's text for the price change, as written (for status messages). */
  readonly priceText?: string;
}

/** Applies a price change to an hourly price (never below zero). */
export function adjustedPrice(price: number, change: PriceChange | undefined): number {
  if (change === undefined) return price;
  switch (change.kind) {
    case 'set':
      return change.value;
    case 'add':
      return Math.max(0, price + change.value);
    case 'percent':
      return Math.max(0, price * (1 + change.value / 100));
  }
}

/** Karpenter's order: heavier first, then names later in the alphabet first. */
export function byOverlayPrecedence(a: NodeOverlay, b: NodeOverlay): number {
  if (a.weight !== b.weight) return b.weight - a.weight;
  return a.name < b.name ? 1 : a.name > b.name ? -1 : 0;
}
