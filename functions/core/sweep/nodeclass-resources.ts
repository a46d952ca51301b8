/**
 * Garbage collection of what joiner made for NodeClasses that are gone: the instance profiles of
 * their roles (as Karpenter's instance profile GC does), unless a live instance still uses one.
 * A failure is logged and left for the next sweep.
 */
import type { SweepDeps } from './sweep-deps.js';

/** Deletes the cloud resources of deleted NodeClasses; returns what was deleted. */
export async function collectNodeClassResources(
  deps: Pick<SweepDeps, 'cloud' | 'config' | 'log'>,
): Promise<readonly string[]> {
  if (!deps.cloud.collectNodeClassResources) return [];
  try {
    const config = await deps.config();
    const names = config.nodeClassNames ?? new Set(config.nodeClasses.map((c) => c.name));
    const deleted = (await deps.cloud.collectNodeClassResources(names)) ?? [];
    for (const name of deleted) deps.log.info('deleted instance profile of a deleted NodeClass', { name });
    return deleted;
  } catch (error) {
    deps.log.warn('collecting the resources of deleted NodeClasses failed, the next sweep retries', {
      error: (error as Error).message,
    });
    return [];
  }
}
