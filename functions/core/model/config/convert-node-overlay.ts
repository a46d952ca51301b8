import type { NodeOverlay, PriceChange } from '../node-overlay.js';
import type { DocumentSource } from '../node-pool.js';
import { parseQuantity } from '../quantity.js';
import { toRequirement } from './convert-common.js';
import type { Converted } from './convert-result.js';
import { emptyConverted } from './convert-result.js';
import type { NodeOverlayV1alpha1 } from './schema/v1alpha1-overlay.js';

/** The price change of a validated `price` / `priceAdjustment` pair. */
export function priceChangeOf(price?: string, adjustment?: string): PriceChange | undefined {
  if (price !== undefined) return { kind: 'set', value: Number(price) };
  if (adjustment === undefined) return undefined;
  if (adjustment.endsWith('%')) return { kind: 'percent', value: Number(adjustment.slice(0, -1)) };
  return { kind: 'add', value: Number(adjustment) };
}

/** Converts a karpenter.sh/v1alpha1 NodeOverlay. */
export function convertNodeOverlayV1alpha1(doc: NodeOverlayV1alpha1, source: DocumentSource): Converted {
  const out = emptyConverted();
  const spec = doc.spec;
  const capacity: Record<string, number> = {};
  for (const [name, value] of Object.entries(spec.capacity ?? {})) capacity[name] = parseQuantity(value);
  const price = priceChangeOf(spec.price, spec.priceAdjustment);
  const overlay: NodeOverlay = {
    name: doc.metadata.name,
    source,
    requirements: (spec.requirements ?? []).map(toRequirement),
    capacity,
    weight: spec.weight ?? 0,
    ...(price ? { price, priceText: spec.price ?? spec.priceAdjustment } : {}),
  };
  out.nodeOverlays.push(overlay);
  return out;
}
