/**
 * joiner's real Lambda handlers, built for a simulated cloud: each gets the dependencies its
 * production entry point would read from the environment, with the cloud's endpoints, its virtual
 * clock and a log writing Karpenter-style lines.
 */
import type { Dependencies } from '../../handlers/runtime/dependencies.js';
import { dependenciesFromEnv } from '../../handlers/runtime/dependencies.js';
import { lineLog } from '../../handlers/runtime/log.js';
import type { FunctionName } from '../../shared/event-sources.js';
import type { SimulatedCloud } from '../cloud.js';
import type { FunctionHandler } from '../runner/lambda-runner.js';

/** The functions a simulation runs (the installer's work is done by the scenario itself). */
export const SIMULATED_FUNCTIONS = [
  'webhook',
  'provisioner',
  'lifecycle',
  'interruption',
  'disruption',
] as const;

type HandlerFactory = (getDeps: () => Dependencies) => FunctionHandler;

async function factoryOf(name: FunctionName): Promise<HandlerFactory | undefined> {
  const module = (await import(`../../handlers/${name}.js`)) as Record<string, unknown>;
  const factory = module[`create${name[0].toUpperCase()}${name.slice(1)}Handler`];
  return typeof factory === 'function' ? (factory as HandlerFactory) : undefined;
}

/**
 * Sets joiner's handlers on the cloud's Lambda runner; returns the functions whose handler module
 * has no factory yet (they stay unset: their queues keep their messages).
 */
export async function installJoinerHandlers(
  cloud: SimulatedCloud,
  sink: (line: string) => void,
  options: { readonly level?: 'debug' | 'info' } = {},
): Promise<FunctionName[]> {
  const missing: FunctionName[] = [];
  const env = cloud.env();
  for (const name of SIMULATED_FUNCTIONS) {
    const factory = await factoryOf(name);
    if (!factory) {
      missing.push(name);
      continue;
    }
    const log = lineLog({ clock: cloud.clock, sink, name, level: options.level });
    const deps = dependenciesFromEnv(env, { clock: cloud.clock, log });
    cloud.runner.setHandler(
      name,
      factory(() => deps),
    );
  }
  return missing;
}
