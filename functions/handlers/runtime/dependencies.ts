import { bundledCatalog } from '../../core/catalog/bundled.js';
import type { Catalog } from '../../core/model/instance-type.js';
import { type PortDependencies, portDependenciesFromEnv } from './port-dependencies.js';

export type { Settings } from './settings.js';

/** Everything a handler may need: the {@link PortDependencies} and the instance catalog. */
export interface Dependencies extends PortDependencies {
  catalog: Catalog;
}

/**
 * The dependencies of a handler, read from `env`, with joiner's bundled instance catalog (or the
 * `catalog` override). See {@link portDependenciesFromEnv} for how the other members are built,
 * cached and overridden.
 */
export function dependenciesFromEnv(
  env: NodeJS.ProcessEnv,
  overrides: Partial<Dependencies> = {},
): Dependencies {
  const { catalog, ...ports } = overrides;
  const deps = portDependenciesFromEnv(env, ports) as Dependencies;
  Object.defineProperty(deps, 'catalog', { enumerable: true, get: () => catalog ?? bundledCatalog });
  return deps;
}
