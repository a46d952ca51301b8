/**
 * joiner's real handlers on the simulated cloud's Lambda runner, with chaos: each is built over
 * chaos ports (chaos-ports.ts), every SQS batch is delivered three times (twice at once, then once
 * more), and every schedule event twice at once. What SQS does with a batch follows the first
 * delivery; the other two are the duplicates at-least-once delivery may bring.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { Context, SQSEvent } from 'aws-lambda';
import { createDisruptionHandler } from '../../../functions/handlers/disruption.js';
import { createInterruptionHandler } from '../../../functions/handlers/interruption.js';
import { createLifecycleHandler } from '../../../functions/handlers/lifecycle.js';
import { createProvisionerHandler } from '../../../functions/handlers/provisioner.js';
import { dependenciesFromEnv } from '../../../functions/handlers/runtime/dependencies.js';
import { lineLog } from '../../../functions/handlers/runtime/log.js';
import { createWebhookHandler } from '../../../functions/handlers/webhook.js';
import type { SeededRandom } from '../../../functions/simulator/clock.js';
import type { SimulatedCloud } from '../../../functions/simulator/cloud.js';
import { functionClock } from '../../../functions/simulator/runner/function-clock.js';
import type { FunctionHandler } from '../../../functions/simulator/runner/lambda-runner.js';
import { ChaosLedger, type ChaosRates, chaosCloud, chaosCluster, chaosStore } from './chaos-ports.js';

type MutableRates = { -readonly [K in keyof ChaosRates]: ChaosRates[K] };

const FACTORIES = {
  provisioner: createProvisionerHandler,
  lifecycle: createLifecycleHandler,
  interruption: createInterruptionHandler,
  disruption: createDisruptionHandler,
} as const;

/** One provisioning cycle: when it started, and the injected faults its deliveries met. */
export interface ProvisioningCycle {
  /** Virtual epoch ms. */
  readonly at: number;
  /**
   * The injected faults met (a delivery failed, or the provisioner logged a throttled, refused or
   * out-of-capacity call), first words of each; empty for a clean cycle.
   */
  readonly faults: readonly string[];
}

/**
 * A provisioner warning or error caused by an injected fault: a crash point, EC2 throttling or
 * capacity errors, the API server's 503s, DynamoDB throttling (the provisioner's own decisions,
 * such as a pod it cannot schedule or a deferral to the lease holder, do not match).
 */
const INJECTED =
  /chaos:|RequestLimitExceeded|InsufficientInstanceCapacity|unavailable|ServiceUnavailable|\b503\b|ProvisionedThroughputExceeded|InternalError|Throttl/i;

/** A failure the provisioner shrugs off (logged as best effort, done again later). */
const BEST_EFFORT = /best effort/;

/** What the chaos handlers recorded. */
export interface ChaosHandlers {
  readonly ledger: ChaosLedger;
  /**
   * Virtual start times of the provisioner's batches that planned (a provisioning cycle each): an
   * invocation whose every delivery was absorbed by (or deferred to) the run holding the
   * provisioning lease planned nothing (that run plans every pending pod, as Karpenter's single
   * provisioning loop does), so it is no cycle of its own; a run that planned but whose launch
   * failed is one.
   */
  readonly provisioningCycles: ProvisioningCycle[];
  /** Deliveries made, duplicates included. */
  deliveries: number;
  /** Deliveries that failed as a whole (a crash, a 5xx, throttling): SQS brings the batch back. */
  failedDeliveries: number;
  /** Admission webhook calls lost (answered 500: the API server ignores it, the event is gone). */
  webhookDropped: number;
  /** Ends the random faults (the crash points stay as they are). */
  calm(): void;
}

/** Replaces the runner's controller handlers with chaos ones; returns what they record. */
export function installChaosHandlers(
  cloud: SimulatedCloud,
  random: SeededRandom,
  initialRates: ChaosRates,
  sink: (line: string) => void,
  webhookDropRate: number,
): ChaosHandlers {
  const ledger = new ChaosLedger();
  const rates: MutableRates = { ...initialRates };
  let dropRate = webhookDropRate;
  const record: ChaosHandlers = {
    ledger,
    provisioningCycles: [],
    deliveries: 0,
    failedDeliveries: 0,
    webhookDropped: 0,
    calm: () => {
      rates.dynamoThrottle = 0;
      dropRate = 0;
    },
  };
  const draw = () => random.next();
  // The functions' clock: the SDK's retry backoff waits virtual time, its jitter from the seed.
  const clock = functionClock(cloud.clock, () => cloud.latency.retryJitter());
  // Each function signs with its own role's credentials, as Lambda gives them (IAM enforced).
  const webhook = createWebhookHandler(() =>
    dependenciesFromEnv(cloud.envFor('webhook'), {
      clock,
      log: lineLog({ clock: cloud.clock, sink, name: 'webhook' }),
    }),
  );
  cloud.runner.setHandler('webhook', (async (event: unknown, context: Context) => {
    if (draw() < dropRate) {
      record.webhookDropped++;
      return { statusCode: 500, body: '{"message":"chaos: the webhook call was lost"}' };
    }
    return webhook(event as never, context);
  }) as FunctionHandler);
  // Whether the delivery running (its async context) got past the provisioning lease and planned,
  // and which injected faults it met.
  const run = new AsyncLocalStorage<{ planned: boolean; faults: string[] }>();
  const tap = (line: string) => {
    const current = run.getStore();
    if (current && line.includes(' INFO provisioner provisioning run finished')) current.planned = true;
    // A best-effort write that failed (the NodeClaim object, written again by the sweep) kept
    // nothing from launching.
    if (current && / (WARN|ERROR) provisioner /.test(line) && INJECTED.test(line) && !BEST_EFFORT.test(line))
      current.faults.push(briefly(line.replace(/^\S+ (WARN|ERROR) provisioner /, '')));
    sink(line);
  };
  for (const name of Object.keys(FACTORIES) as (keyof typeof FACTORIES)[]) {
    const log = lineLog({ clock: cloud.clock, sink: name === 'provisioner' ? tap : sink, name });
    const env = cloud.envFor(name);
    const base = dependenciesFromEnv(env, { clock, log });
    const deps = dependenciesFromEnv(env, {
      clock,
      log,
      cluster: chaosCluster(base.cluster, ledger),
      store: chaosStore(base.store, draw, rates, ledger),
      cloud: chaosCloud(base.cloud, ledger),
    });
    const handler = FACTORIES[name](() => deps) as unknown as FunctionHandler;
    const deliver = async (event: unknown, context: Context) => {
      record.deliveries++;
      try {
        return await handler(event as never, context);
      } catch (error) {
        record.failedDeliveries++;
        // A failure an injected fault caused (not, say, a timeout or a bug of joiner's own).
        const text = `${(error as Error).name}: ${(error as Error).message}`;
        if (INJECTED.test(text)) run.getStore()?.faults.push(briefly(`delivery failed: ${text}`));
        throw error;
      }
    };
    cloud.runner.setHandler(name, (async (event: unknown, context: Context) => {
      const records = (event as Partial<SQSEvent>).Records;
      const cycle = { at: cloud.clock.now(), planned: false, faults: [] as string[] };
      const [first, second] = await run.run(cycle, () =>
        Promise.allSettled([deliver(event, context), deliver(event, context)]),
      );
      void second;
      if (records) await run.run(cycle, () => deliver(event, context).catch(() => undefined));
      if (name === 'provisioner' && records && records.length > 0 && cycle.planned)
        record.provisioningCycles.push({ at: cycle.at, faults: cycle.faults });
      if (first.status === 'rejected') throw first.reason;
      return first.value;
    }) as FunctionHandler);
  }
  return record;
}

/** The first 120 characters of a fault's text. */
function briefly(text: string): string {
  return text.length > 120 ? `${text.slice(0, 117)}...` : text;
}
