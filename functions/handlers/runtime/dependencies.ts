import { createCloudProvider } from '../../adapters/aws/create-cloud-provider.js';
import { createSqsClient, SqsTimerScheduler } from '../../adapters/aws/timer-queue.js';
import { createClusterApi, type KubeConnectionOptions } from '../../adapters/kube/create-cluster-api.js';
import { createStateStore } from '../../adapters/store/create-state-store.js';
import { bundledCatalog } from '../../core/catalog/bundled.js';
import type { Catalog } from '../../core/model/instance-type.js';
import type { Clock } from '../../core/ports/clock.js';
import { systemClock } from '../../core/ports/clock.js';
import type { CloudProvider } from '../../core/ports/cloud-provider.js';
import type { ClusterApi } from '../../core/ports/cluster-api.js';
import type { EventPublisher, TimerScheduler } from '../../core/ports/event-publisher.js';
import type { Log } from '../../core/ports/log.js';
import type { StateStore } from '../../core/ports/state-store.js';
import { ENV } from '../../shared/env.js';
import { clusterInfoOf, eksAddressOf, kubernetesVersionOf } from './cluster-facts.js';
import { eventPublisherFor } from './event-publisher-for.js';
import { logger } from './lambda.js';
import { powertoolsLog } from './log.js';
import { requireSetting, type Settings, settingsFromEnv } from './settings.js';

export type { Settings } from './settings.js';

/** Everything a handler may need. Each member is built on first use and then reused. */
export interface Dependencies {
  settings: Settings;
  clock: Clock;
  log: Log;
  cluster: ClusterApi;
  store: StateStore;
  cloud: CloudProvider;
  events: EventPublisher;
  timers: TimerScheduler;
  catalog: Catalog;
}

type Builders = { [K in keyof Dependencies]: (deps: Dependencies) => Dependencies[K] };

const BUILDERS: Builders = {
  settings: () => {
    throw new Error('settings are read from the environment');
  },
  clock: () => systemClock,
  log: () => powertoolsLog(logger),
  catalog: () => bundledCatalog,
  cluster: (d) => createClusterApi(kubeConnectionOf(d.settings), { log: d.log, clock: d.clock }),
  store: (d) =>
    createStateStore({
      tableName: d.settings.tableName,
      region: d.settings.region,
      endpoint: d.settings.endpoints.dynamoDb,
      credentials: d.settings.credentials,
    }),
  cloud: (d) =>
    createCloudProvider({
      region: d.settings.region,
      ec2Endpoint: d.settings.endpoints.ec2,
      ssmEndpoint: d.settings.endpoints.ssm,
      credentials: d.settings.credentials,
      cluster: clusterInfoOf(d.settings),
      kubernetesVersion: kubernetesVersionOf(d.settings),
      defaultInstanceProfile: d.settings.instanceProfileName,
      now: () => d.clock.now(),
    }),
  events: (d) => eventPublisherFor(d.settings, d.clock),
  timers: (d) =>
    new SqsTimerScheduler(
      createSqsClient({
        region: d.settings.region,
        endpoint: d.settings.endpoints.sqs,
        credentials: d.settings.credentials,
      }),
      requireSetting(d.settings.timersQueueUrl, ENV.timersQueueUrl, 'the queue of nodeclaim timer wake-ups'),
      d.clock,
    ),
};

/**
 * How the Kubernetes adapter connects: the kubeconfig when given, else the EKS endpoint + CA with
 * an IAM token for `clusterName` (default: the configured cluster). Endpoint and CA come from the
 * environment, or from eks:DescribeCluster on the first request when the environment lacks them.
 */
export function kubeConnectionOf(settings: Settings, clusterName?: string): KubeConnectionOptions {
  if (settings.kubeconfigPath) return { kubeconfigPath: settings.kubeconfigPath };
  const name = clusterName ?? settings.clusterName;
  const address = eksAddressOf(settings, name);
  const where = { clusterName: name, region: settings.region };
  return typeof address === 'function' ? { ...where, address } : { ...where, ...address };
}

/** Built members per (environment contents, override identities); a few entries at most in practice. */
const caches = new Map<string, Partial<Dependencies>>();
const MAX_CACHES = 32;
const identities = new WeakMap<object, number>();
let nextIdentity = 0;

function identity(value: unknown): string {
  if (value === null || (typeof value !== 'object' && typeof value !== 'function')) return String(value);
  let id = identities.get(value as object);
  if (id === undefined) {
    id = ++nextIdentity;
    identities.set(value as object, id);
  }
  return `#${id}`;
}

function cacheKey(env: NodeJS.ProcessEnv, overrides: Partial<Dependencies>): string {
  const relevant = Object.entries(env)
    .filter(([name]) => /^(JOINER_|AWS_|POWERTOOLS_)/.test(name))
    .sort(([a], [b]) => a.localeCompare(b));
  const replaced = Object.keys(overrides)
    .sort()
    .map((key) => `${key}=${identity(overrides[key as keyof Dependencies])}`);
  return JSON.stringify([relevant, replaced]);
}

function cacheFor(key: string, env: NodeJS.ProcessEnv): Partial<Dependencies> {
  let cache = caches.get(key);
  if (!cache) {
    if (caches.size >= MAX_CACHES) caches.delete(caches.keys().next().value as string);
    cache = { settings: settingsFromEnv({ ...env }) };
    caches.set(key, cache);
  }
  return cache;
}

/**
 * The dependencies of a handler, read from `env`. Nothing is built until a handler touches it,
 * so a missing variable fails only the function that needs it, with an error naming it. Built
 * members are cached per environment (same variables, same overrides: one Lambda process reuses
 * its clients across invocations); `overrides` replace members (the simulated cloud passes its
 * virtual clock and its log).
 */
export function dependenciesFromEnv(
  env: NodeJS.ProcessEnv,
  overrides: Partial<Dependencies> = {},
): Dependencies {
  const cache = cacheFor(cacheKey(env, overrides), env);
  const deps = {} as Dependencies;
  for (const key of Object.keys(BUILDERS) as (keyof Dependencies)[]) {
    Object.defineProperty(deps, key, {
      enumerable: true,
      get: () => {
        if (overrides[key] !== undefined) return overrides[key];
        if (cache[key] === undefined) (cache as Record<string, unknown>)[key] = BUILDERS[key](deps);
        return cache[key];
      },
    });
  }
  return deps;
}
