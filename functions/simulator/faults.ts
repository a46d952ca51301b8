/**
 * Fault injection shared by the simulated services: per service and action, an error (with its
 * code, message and HTTP status), added latency, or both; for a number of calls or with a
 * probability drawn from the seeded random source, so chaos tests stay repeatable.
 */
import type { SeededRandom } from './clock.js';

/** What a fault rule asks for. */
export interface FaultRule {
  /** Service name, e.g. `ec2`, `ssm`, `eventbridge`. */
  readonly service: string;
  /** API action, e.g. `CreateFleet`, or `*` for every action of the service. */
  readonly action: string;
  /** Error code returned instead of a result, e.g. `RequestLimitExceeded`. */
  readonly error?: string;
  readonly message?: string;
  /** HTTP status of the error; the service's default when absent. */
  readonly httpStatus?: number;
  /** Delay added before answering, in milliseconds (virtual time in a simulation, else wall time). */
  readonly latencyMs?: number;
  /** The rule applies to this many matching calls, then removes itself. Unlimited when absent. */
  readonly times?: number;
  /** Chance in [0, 1] that a matching call is affected. Always when absent. */
  readonly probability?: number;
}

/** The fault a call meets. */
export interface Fault {
  readonly error?: string;
  readonly message?: string;
  readonly httpStatus?: number;
  readonly latencyMs?: number;
}

interface ActiveRule {
  readonly rule: FaultRule;
  remaining: number;
}

/** A registry of fault rules consulted by the simulated services on every call. */
export class FaultInjector {
  private rules: ActiveRule[] = [];

  /** `sleep` waits an injected latency (the simulated cloud passes its virtual clock's); default wall time. */
  constructor(
    private readonly random?: SeededRandom,
    private readonly sleep: (ms: number) => Promise<void> = delay,
  ) {}

  /** Waits a fault's latency; resolves at once for none. */
  wait(ms: number | undefined): Promise<void> {
    return ms && ms > 0 ? this.sleep(ms) : Promise.resolve();
  }

  /** Adds a rule; returns a function that removes it. */
  inject(rule: FaultRule): () => void {
    validateRule(rule);
    const active = { rule, remaining: rule.times ?? Number.POSITIVE_INFINITY };
    this.rules.push(active);
    return () => {
      this.rules = this.rules.filter((r) => r !== active);
    };
  }

  /** The fault for this call, if a rule applies; consumes one use of a counted rule. */
  check(service: string, action: string): Fault | undefined {
    for (const active of this.rules) {
      const { rule } = active;
      if (rule.service !== service || (rule.action !== '*' && rule.action !== action)) continue;
      if (rule.probability !== undefined && this.draw() >= rule.probability) continue;
      active.remaining -= 1;
      if (active.remaining <= 0) this.rules = this.rules.filter((r) => r !== active);
      return {
        error: rule.error,
        message: rule.message,
        httpStatus: rule.httpStatus,
        latencyMs: rule.latencyMs,
      };
    }
    return undefined;
  }

  /** Removes every rule. */
  clear(): void {
    this.rules = [];
  }

  private draw(): number {
    return this.random ? this.random.next() : Math.random();
  }
}

function validateRule(rule: FaultRule): void {
  if (!rule.service) throw new Error('fault rule: service is required');
  if (!rule.action) throw new Error(`fault rule for ${rule.service}: action is required (use '*' for all)`);
  if (rule.error === undefined && rule.latencyMs === undefined) {
    throw new Error(`fault rule for ${rule.service}/${rule.action}: give an error, a latencyMs, or both`);
  }
  if (rule.probability !== undefined && (rule.probability < 0 || rule.probability > 1)) {
    throw new Error(`fault rule for ${rule.service}/${rule.action}: probability must be within [0, 1]`);
  }
  if (rule.times !== undefined && (!Number.isInteger(rule.times) || rule.times < 1)) {
    throw new Error(`fault rule for ${rule.service}/${rule.action}: times must be a positive integer`);
  }
}

/** Waits `ms` of wall time (fault latency); resolves at once for 0 or less. */
export function delay(ms: number | undefined): Promise<void> {
  if (!ms || ms <= 0) return Promise.resolve();
  return new Promise((resolve) => setTimeout(resolve, ms));
}
