import * as z from 'zod';
import { metadata } from './common.js';

/**
 * A custom resource document of a kind joiner reads: `apiVersion`, `kind`, `metadata`, the kind's
 * `spec` and an ignored `status`. Every kind's schema is this envelope around its spec.
 */
export function resourceDocument<Spec extends z.ZodType>(spec: Spec) {
  return z.object({
    apiVersion: z.string(),
    kind: z.string(),
    metadata,
    spec,
    status: z.unknown().optional(),
  });
}
