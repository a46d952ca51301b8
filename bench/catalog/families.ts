/**
 * Every EC2 instance family of joiner's bundled catalog, one table per kind of family (facts and
 * sources in `family-facts.ts`). `generate-catalog.ts` turns these into the catalog JSON.
 */
import { ACCELERATED_FAMILIES } from './families-accelerated.js';
import { COMPUTE_FAMILIES } from './families-compute.js';
import { GENERAL_FAMILIES } from './families-general.js';
import { MEMORY_FAMILIES } from './families-memory.js';
import type { FamilyFacts } from './family-facts.js';

export type { FamilyFacts, SizeRow } from './family-facts.js';

/** The families, general-purpose first (order does not matter: the catalog is sorted by name). */
export const FAMILIES: readonly FamilyFacts[] = [
  ...GENERAL_FAMILIES,
  ...COMPUTE_FAMILIES,
  ...MEMORY_FAMILIES,
  ...ACCELERATED_FAMILIES,
];
