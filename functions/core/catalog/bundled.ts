import type { Catalog } from '../model/instance-type.js';
import data from './data/us-west-2.json' with { type: 'json' };
import { parseCatalog } from './parse-catalog.js';

/**
 * joiner's bundled catalog: real EC2 instance types of us-west-2 (general, compute, memory,
 * burstable, Graviton and GPU families) with on-demand prices and a spot price snapshot per zone.
 * Its `source` field says where the facts come from and when. Validated once at load.
 */
export const bundledCatalog: Catalog = parseCatalog(data, 'bundled us-west-2 catalog');
