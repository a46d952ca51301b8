import type { Catalog } from '../model/instance-type.js';
import data from './data/us-west-2.json' with { type: 'json' };

/**
 * joiner's bundled catalog: real EC2 instance types of us-west-2 (general, compute, memory,
 * burstable, Graviton and GPU families) with on-demand prices and a spot price snapshot per zone.
 * Its `source` field says where the facts come from and when. The catalog tests check that
 * `parseCatalog` accepts it and returns it unchanged, so loading it does no validation: the
 * schema's work (tens of milliseconds) stays off every function's cold start.
 */
export const bundledCatalog: Catalog = data as Catalog;
