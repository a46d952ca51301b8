/**
 * Applies the latency model to the simulated services: `wait(service, call)` draws the call's
 * latency (log-normal through the model's p50 and p99) and waits that long in virtual time, with
 * the current activity scope counted as waiting. Each service and call has its own seeded stream,
 * so latency draws never shift the simulation's other random choices, and one call type's count
 * (DynamoDB retries, say) never shifts another's draws (CreateFleet's). Disabled for a manual clock.
 */
import { currentScope } from '../activity.js';
import { SeededRandom, type VirtualClock } from '../clock.js';
import { isReadCall } from '../runner/compute-ledger.js';
import { AWS_LATENCY, type LatencyQuantiles, type LatencyTable } from './aws-latency-data.js';

/** z of the 99th percentile of the standard normal distribution. */
const Z99 = 2.3263478740408408;

/** Draws and waits modeled latencies. */
export class ApiLatency {
  private readonly streams = new Map<string, SeededRandom>();
  private readonly drawn: Array<{ service: string; call: string; ms: number }> = [];
  private readonly counted = new Map<string, number>();

  constructor(
    private readonly clock: VirtualClock,
    private readonly seed: number,
    private readonly table: LatencyTable = AWS_LATENCY,
    private readonly enabled: () => boolean = () => clock.autoSpeed !== undefined,
  ) {}

  /** The model's quantiles of a call (the service's `*` entry for calls it does not list). */
  quantiles(service: string, call: string): LatencyQuantiles | undefined {
    const calls = this.table[service];
    return calls?.[call] ?? calls?.['*'];
  }

  /**
   * A latency drawn for one call, in ms (0 when the model has no entry), from the call's stream, or
   * from `source` when given (see {@link wait}).
   */
  draw(service: string, call: string, source?: SeededRandom): number {
    const q = this.quantiles(service, call);
    if (!q) return 0;
    const mu = Math.log(q.p50Ms);
    const sigma = Math.max(0, (Math.log(q.p99Ms) - mu) / Z99);
    const ms = Math.round(Math.exp(mu + sigma * this.normal(source ?? this.stream(service, call))));
    this.drawn.push({ service, call, ms });
    if (this.drawn.length > 10_000) this.drawn.shift();
    return ms;
  }

  /** Counts one call of `service` (every call a simulated service serves passes here). */
  count(service: string, call: string): void {
    const key = `${service} ${call}`;
    this.counted.set(key, (this.counted.get(key) ?? 0) + 1);
  }

  /** Calls served so far, per `service call` (e.g. `ec2 CreateFleet`), whether latency is modeled or not. */
  calls(): ReadonlyMap<string, number> {
    return this.counted;
  }

  /**
   * Counts the call and waits its drawn latency in virtual time (no wait when disabled). A call from a joiner
   * invocation first waits the compute the invocation did before it (see compute-ledger.ts), and
   * both are recorded on the invocation's ledger. `latencyOf` draws the latency of another entry
   * (e.g. `*` for a call refused at the door, such as a throttled one), still counted as `call`.
   *
   * The latency of a call from a joiner invocation is drawn by the invocation (its ledger's
   * `caller`), what the request is (service, method, path, target) and its rank among the
   * invocation's requests of that kind, in the order it sent them: an invocation often sends several
   * calls at once, and several invocations run at one virtual instant; which call the service reads
   * first, and even which of an invocation's concurrent calls goes out first (a pooled socket or a
   * new connection), depends on the host's load, so a stream shared in arrival order, or a rank
   * among all of its calls, would hand one call another's latency on a busy host, and what follows
   * would change.
   */
  async wait(service: string, call: string, latencyOf: string = call): Promise<void> {
    this.count(service, call);
    if (!this.enabled()) return;
    const billing = currentScope()?.billing;
    const compute = billing?.computeMs ?? 0;
    if (billing) billing.computeMs = 0;
    const caller = billing?.ledger.caller;
    const key = `${service}/${latencyOf}`;
    const source = caller
      ? new SeededRandom(hashSeed(this.seed, `${caller}|${billing.request ?? ''}|${billing.call}|${key}`))
      : undefined;
    const ms = this.draw(service, latencyOf, source);
    if (billing) {
      const now = this.clock.now();
      billing.ledger.record('compute', now, now + compute);
      billing.ledger.record(isReadCall(service, call) ? 'read' : 'write', now + compute, now + compute + ms);
    }
    if (compute + ms > 0) await this.clock.sleep(compute + ms);
  }

  /**
   * A float in [0, 1) for the jitter of a joiner call's retry backoff (the SDK's full jitter), drawn
   * from the run's seed: by the invocation (its ledger's `caller`) and the rank of the draw among
   * its draws, so a throttled call waits the same virtual time on every run of a scenario and seed,
   * whatever other invocations retry meanwhile. Outside an invocation, from a stream of its own.
   */
  retryJitter(): number {
    const ledger = currentScope()?.ledger;
    if (!ledger?.caller) return this.stream('retry', 'jitter').next();
    return new SeededRandom(hashSeed(this.seed, `${ledger.caller}|retry|${ledger.nextDraw()}`)).next();
  }

  /** Latencies drawn so far (the last 10 000), for summaries. */
  draws(): readonly { service: string; call: string; ms: number }[] {
    return this.drawn;
  }

  /** The seeded stream of one service and call. */
  private stream(service: string, call: string): SeededRandom {
    const key = `${service}/${call}`;
    let stream = this.streams.get(key);
    if (!stream) {
      stream = new SeededRandom(hashSeed(this.seed, key));
      this.streams.set(key, stream);
    }
    return stream;
  }

  /** A standard normal draw (Box-Muller). */
  private normal(random: SeededRandom): number {
    const u = 1 - random.next();
    const v = random.next();
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
  }
}

/** A stream's seed from the run's seed and a key (FNV-1a over the key). */
function hashSeed(seed: number, key: string): number {
  let hash = (seed * 2654435761) >>> 0;
  for (let i = 0; i < key.length; i++) hash = Math.imul(hash ^ key.charCodeAt(i), 16777619) >>> 0;
  return hash;
}
