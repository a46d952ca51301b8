import { createClusterApi } from '../../adapters/kube/create-cluster-api.js';
import type { Clock } from '../../core/ports/clock.js';
import { systemClock } from '../../core/ports/clock.js';
import type { CloudProvider } from '../../core/ports/cloud-provider.js';
import type { ClusterApi } from '../../core/ports/cluster-api.js';
import type { EventPublisher, TimerScheduler } from '../../core/ports/event-publisher.js';
import type { Log } from '../../core/ports/log.js';
import type { StateStore } from '../../core/ports/state-store.js';
import { mirroredStore } from '../../core/status/mirrored-store.js';
import { cachedUntilFailure } from '../../shared/cached-until-failure.js';
import { ENV } from '../../shared/env.js';
import { clusterInfoOf, kubernetesVersionOf } from './cluster-facts.js';
import { kubeConnectionOf } from './kube-connection.js';
import { logger } from './lambda.js';
import { lazyPort } from './lazy-port.js';
import { powertoolsLog } from './log.js';
import { requireSetting, type Settings, settingsFromEnv } from './settings.js';

/**
 * What a handler may need besides the instance catalog: settings, clock, log and the ports. Each
 * member is built on first use and then reused. The functions that never plan (lifecycle,
 * interruption, disruption) take these, so the catalog's data stays out of their bundles.
 */
export interface PortDependencies {
  settings: Settings;
  clock: Clock;
  log: Log;
  cluster: ClusterApi;
  store: StateStore;
  cloud: CloudProvider;
  events: EventPublisher;
  timers: TimerScheduler;
}

/**
 * The adapter module of each port over an AWS service, imported on the port's first call (see
 * {@link BUILDERS}). A warm function has imported the ones it called. Each is imported once and its
 * settled promise reused (a second `import()` would go through the module loader again: off the
 * main thread under a loader hook, as in the simulated cloud, whose clock cannot see that wait).
 */
export const ADAPTER_MODULES = {
  store: cachedUntilFailure(() => import('../../adapters/store/create-state-store.js')),
  cloud: cachedUntilFailure(() => import('../../adapters/aws/create-cloud-provider.js')),
  events: cachedUntilFailure(() => import('./event-publisher-for.js')),
  timers: cachedUntilFailure(() => import('../../adapters/aws/timer-queue.js')),
} as const;

type Builders = { [K in keyof PortDependencies]: (deps: PortDependencies) => PortDependencies[K] };

/**
 * How each member is built. The members over an AWS service (store, cloud, events, timers) are
 * {@link lazyPort}s: their settings are read here (a missing variable throws at once, naming it),
 * but their adapter and its SDK client are imported on the port's first call. Code splitting
 * makes each of them a chunk of the bundle that a cold start does not read, and that a function
 * never reads when it does not call the port (e.g. the lifecycle function never loads EC2).
 */
const BUILDERS: Builders = {
  settings: () => {
    throw new Error('settings are read from the environment');
  },
  clock: () => systemClock,
  log: () => powertoolsLog(logger),
  cluster: (d) => createClusterApi(kubeConnectionOf(d.settings), { log: d.log, clock: d.clock }),
  store: (d) => {
    const options = {
      tableName: d.settings.tableName,
      region: d.settings.region,
      endpoint: d.settings.endpoints.dynamoDb,
      credentials: d.settings.credentials,
    };
    const store = lazyPort<StateStore>(async () => {
      const { createStateStore } = await ADAPTER_MODULES.store();
      return createStateStore(options);
    });
    // Every claim written is mirrored as a NodeClaim resource for kubectl (best effort).
    return mirroredStore(store, () => d.cluster, d.clock, d.log);
  },
  cloud: (d) => {
    const options = {
      region: d.settings.region,
      ec2Endpoint: d.settings.endpoints.ec2,
      ssmEndpoint: d.settings.endpoints.ssm,
      iamEndpoint: d.settings.endpoints.iam,
      credentials: d.settings.credentials,
      cluster: clusterInfoOf(d.settings),
      kubernetesVersion: kubernetesVersionOf(d.settings),
      defaultInstanceProfile: d.settings.instanceProfileName,
      nodeRoleArns: d.settings.nodeRoleArns,
      owner: tableNameOf(d.settings),
      now: () => d.clock.now(),
      // The SDK's retry backoff (throttling) is waited on the handler's clock, with its jitter.
      ...(d.clock.wait ? { retrySleep: (ms: number) => d.clock.wait?.(ms) ?? Promise.resolve() } : {}),
      ...(d.clock.random ? { retryRandom: () => d.clock.random?.() ?? Math.random() } : {}),
    };
    return lazyPort(async () => {
      const { createCloudProvider } = await ADAPTER_MODULES.cloud();
      return createCloudProvider(options);
    });
  },
  events: (d) => {
    const { settings, clock } = d;
    void settings.busName; // read now: a missing variable fails here, naming it
    return lazyPort(async () => (await ADAPTER_MODULES.events()).eventPublisherFor(settings, clock));
  },
  timers: (d) => {
    const { settings, clock } = d;
    const queueUrl = requireSetting(
      settings.timersQueueUrl,
      ENV.timersQueueUrl,
      'the queue of nodeclaim timer wake-ups',
    );
    const client = {
      region: settings.region,
      endpoint: settings.endpoints.sqs,
      credentials: settings.credentials,
    };
    return lazyPort(async () => {
      const { createSqsClient, SqsTimerScheduler } = await ADAPTER_MODULES.timers();
      return new SqsTimerScheduler(createSqsClient(client), queueUrl, clock);
    });
  },
};

/** Built members per (environment contents, override identities); a few entries at most in practice. */
const caches = new Map<string, Partial<PortDependencies>>();
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

function cacheKey(env: NodeJS.ProcessEnv, overrides: Partial<PortDependencies>): string {
  const relevant = Object.entries(env)
    .filter(([name]) => /^(JOINER_|AWS_|POWERTOOLS_)/.test(name))
    .sort(([a], [b]) => a.localeCompare(b));
  const replaced = Object.keys(overrides)
    .sort()
    .map((key) => `${key}=${identity(overrides[key as keyof PortDependencies])}`);
  return JSON.stringify([relevant, replaced]);
}

function cacheFor(key: string, env: NodeJS.ProcessEnv): Partial<PortDependencies> {
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
export function portDependenciesFromEnv(
  env: NodeJS.ProcessEnv,
  overrides: Partial<PortDependencies> = {},
): PortDependencies {
  const cache = cacheFor(cacheKey(env, overrides), env);
  const deps = {} as PortDependencies;
  for (const key of Object.keys(BUILDERS) as (keyof PortDependencies)[]) {
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

/** The state table's name (the owner identity tagged on instances), or undefined when not configured. */
function tableNameOf(settings: Settings): string | undefined {
  try {
    return settings.tableName;
  } catch {
    return undefined;
  }
}
