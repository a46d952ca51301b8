import * as z from 'zod';
import { addIssue, atMostEntries, quantity } from './common.js';
import { celRules } from './crd-rules.js';
import { resourceDocument } from './document.js';
import { lazySchema } from './lazy-schema.js';
import { requirementList, requirementSchema } from './requirement.js';

/** Karpenter's pattern of `priceAdjustment`: a signed amount, `+N%`, or `-N%` down to `-100%`. */
export const PRICE_ADJUSTMENT_PATTERN = /^(([+-](\d*\.?\d+))|(\+\d*\.?\d+%)|(-\d{1,2}(\.\d+)?%)|(-100%))$/;

/** Karpenter's pattern of `price`: an unsigned decimal. */
export const PRICE_PATTERN = /^\d+(\.\d+)?$/;

/** Resources an overlay may not set: it adds extended resources only. */
export const OVERLAY_RESTRICTED_RESOURCES = ['cpu', 'memory', 'ephemeral-storage', 'pods'];

/**
 * The most extended resources one overlay may add. Karpenter's CRD leaves `capacity` unbounded;
 * joiner bounds it like a NodePool's labels so the API server can bound the cost of the CEL rule
 * that looks at every resource name.
 */
export const MAX_OVERLAY_CAPACITY = 100;

/** A CEL list literal of strings. */
const celList = (items: readonly string[]): string => `[${items.map((i) => `'${i}'`).join(', ')}]`;

/** `karpenter.sh/v1alpha1` NodeOverlay (Karpenter v1.7). */
export const nodeOverlayV1alpha1 = lazySchema(() =>
  resourceDocument(
    z
      .object({
        requirements: requirementList(requirementSchema({ restrictKeys: false, allowMinValues: false })),
        priceAdjustment: z
          .string()
          .regex(PRICE_ADJUSTMENT_PATTERN, {
            message:
              'priceAdjustment must be a signed amount (e.g. "-0.5", "+1.2") or a percentage ("+10%", "-15%", at least "-100%")',
          })
          .optional(),
        price: z
          .string()
          .regex(PRICE_PATTERN, { message: 'price must be an unsigned decimal in USD per hour, e.g. "0.42"' })
          .optional(),
        capacity: z
          .record(z.string(), quantity)
          .superRefine(
            atMostEntries(
              MAX_OVERLAY_CAPACITY,
              'capacity entries',
              'an overlay adds a few extended resources',
            ),
          )
          .meta({ maxProperties: MAX_OVERLAY_CAPACITY })
          .optional(),
        weight: z.number().int().min(1).max(10000).optional(),
      })
      .superRefine((spec, ctx) => {
        if (spec.price !== undefined && spec.priceAdjustment !== undefined)
          addIssue(ctx, "cannot set both 'price' and 'priceAdjustment'", [], 'keep one of them');
        for (const name of Object.keys(spec.capacity ?? {})) {
          if (OVERLAY_RESTRICTED_RESOURCES.includes(name))
            addIssue(
              ctx,
              `capacity may not set ${name}: a NodeOverlay adds extended resources only`,
              ['capacity', name],
              'remove it; cpu, memory, ephemeral-storage and pods come from the instance type',
            );
        }
      })
      .meta(
        celRules(
          {
            rule: '!(has(self.price) && has(self.priceAdjustment))',
            message: "cannot set both 'price' and 'priceAdjustment'",
          },
          {
            rule: `!has(self.capacity) || self.capacity.all(k, !(k in ${celList(OVERLAY_RESTRICTED_RESOURCES)}))`,
            message:
              'capacity may not set cpu, memory, ephemeral-storage or pods: an overlay adds extended resources only',
          },
        ),
      ),
  ),
);

export type NodeOverlayV1alpha1 = z.infer<ReturnType<typeof nodeOverlayV1alpha1>>;
