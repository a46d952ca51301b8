/**
 * The catalog refresh Lambda, on two EventBridge schedules (functions/shared/event-sources.ts):
 * `{"refresh":"spot-prices"}` every few minutes, `{"refresh":"catalog"}` (instance types, zone
 * offerings, on-demand and spot prices) a few times a day, and once at deploy time (a custom
 * resource request: a whole refresh that never fails the deployment). It writes the region's
 * catalog snapshot to the state table, where the provisioner and disruption functions read it.
 * Idempotent: writes are conditional on the fetch time.
 */
import * as z from 'zod';
import { type RefreshDeps, type RefreshScope, refreshCatalog } from '../core/catalog/live/refresh-catalog.js';
import { METRIC_NAMES } from '../shared/metrics.js';
import { CATALOG_DEPLOY_PHYSICAL_ID, isCustomResourceEvent } from './catalog-deploy-event.js';
import { lambdaHandler, recordMetrics } from './runtime/lambda.js';
import { refreshDependenciesFromEnv } from './runtime/refresh-dependencies.js';

const refreshInput = z.object({ refresh: z.enum(['spot-prices', 'catalog']) });

/** The scope an event asks for: its `refresh` field, or the whole catalog (deploy trigger, bare schedule). */
export function refreshScopeOf(event: unknown): RefreshScope {
  if (typeof event !== 'object' || event === null || !('refresh' in event)) return 'catalog';
  const parsed = refreshInput.safeParse(event);
  if (!parsed.success) {
    throw new Error(
      `catalog refresh: event field "refresh" must be "spot-prices" or "catalog", got ${JSON.stringify((event as { refresh: unknown }).refresh)}`,
    );
  }
  return parsed.data.refresh;
}

/** What a refresh returns: the outcome, or (custom resource) the physical id and the outcome as Data. */
export type RefreshResult =
  | { scope: RefreshScope; instanceTypes: number; spotPrices: number }
  | { PhysicalResourceId: string; Data?: Record<string, string | number> };

/** Builds the refresh handler. */
export function createCatalogRefreshHandler(getDeps: () => RefreshDeps) {
  return lambdaHandler<unknown, RefreshResult>(async (event) => {
    const deps = getDeps();
    if (isCustomResourceEvent(event)) return deployRefresh(deps, event.RequestType);
    const scope = refreshScopeOf(event);
    try {
      const outcome = await refreshCatalog(deps, scope);
      recordMetrics({ CatalogInstanceTypes: outcome.instanceTypes, CatalogSpotPrices: outcome.spotPrices });
      return { scope: outcome.scope, instanceTypes: outcome.instanceTypes, spotPrices: outcome.spotPrices };
    } catch (error) {
      deps.log.error('catalog refresh failed; plans keep the last snapshot', {
        region: deps.region,
        scope,
        error: String(error),
      });
      recordMetrics({ [METRIC_NAMES.catalogRefreshFailures]: 1 });
      throw error;
    }
  });
}

/**
 * The deploy-time refresh (custom resource Create / Update): a whole refresh whose failure is
 * logged, never returned, so a deployment does not fail for a Pricing hiccup (the schedules retry
 * within minutes). Delete has nothing to undo.
 */
async function deployRefresh(deps: RefreshDeps, requestType: string): Promise<RefreshResult> {
  if (requestType === 'Delete') return { PhysicalResourceId: CATALOG_DEPLOY_PHYSICAL_ID };
  try {
    const outcome = await refreshCatalog(deps, 'catalog');
    return {
      PhysicalResourceId: CATALOG_DEPLOY_PHYSICAL_ID,
      Data: { InstanceTypes: outcome.instanceTypes, SpotPrices: outcome.spotPrices },
    };
  } catch (error) {
    deps.log.warn('the deploy-time catalog refresh failed; the schedule refreshes within minutes', {
      region: deps.region,
      error: String(error),
    });
    recordMetrics({ [METRIC_NAMES.catalogRefreshFailures]: 1 });
    return { PhysicalResourceId: CATALOG_DEPLOY_PHYSICAL_ID };
  }
}

/** The Lambda entry point. */
export const handler = createCatalogRefreshHandler(() => refreshDependenciesFromEnv(process.env));
