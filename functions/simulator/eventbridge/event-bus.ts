/**
 * The simulated EventBridge's state and delivery: event buses, rules (event patterns) and their SQS
 * targets. An event put on a bus is wrapped in the real envelope and sent, for every matching
 * rule, to each target queue with the SQS protocol (`SendMessage`), before the put returns.
 */
import { randomUUID } from 'node:crypto';
import { GetQueueUrlCommand, SendMessageCommand, type SQSClient } from '@aws-sdk/client-sqs';
import { DEFAULT_BUS_NAME, type EventPattern } from '../../shared/event-rules.js';
import { type TargetInput, targetPayloadText } from '../../shared/target-input.js';
import type { ServiceAuthorizer } from '../iam/authorization/authorization-request.js';
import { compileEventPattern, type EventMatcher } from './event-pattern.js';

/** The envelope EventBridge delivers to targets. */
export interface EventEnvelope {
  readonly version: '0';
  readonly id: string;
  readonly 'detail-type': string;
  readonly source: string;
  readonly account: string;
  readonly time: string;
  readonly region: string;
  readonly resources: readonly string[];
  readonly detail: unknown;
}

/** An event to put on a bus (what a PutEvents entry carries, detail already parsed). */
export interface BusEvent {
  readonly source: string;
  readonly detailType: string;
  readonly detail: unknown;
  readonly resources?: readonly string[];
  /** Event time in epoch milliseconds; the bus clock's now when absent. */
  readonly time?: number;
}

/** A rule target: an SQS queue by ARN (its URL is looked up once with GetQueueUrl). */
export interface RuleTarget {
  readonly id: string;
  readonly arn: string;
  /** What the queue receives of the event, as in AWS. @default the whole envelope */
  readonly input?: TargetInput;
}

/** A rule on a bus. */
export interface BusRule {
  readonly name: string;
  readonly bus: string;
  readonly pattern: EventPattern;
  readonly targets: RuleTarget[];
  state: 'ENABLED' | 'DISABLED';
  readonly matcher: EventMatcher;
}

/** A delivery that failed after retries (the real service would retry for a day, then DLQ it). */
export interface FailedDelivery {
  readonly rule: string;
  readonly target: string;
  readonly eventId: string;
  readonly error: string;
}

/** Options of {@link EventBusRegistry}. */
export interface EventBusRegistryOptions {
  readonly sqs: SQSClient;
  readonly region: string;
  readonly account?: string;
  /** Clock for event times (the simulator's virtual clock). */
  readonly now?: () => number;
  /**
   * Waits a rule's delivery latency (the simulated cloud's latency model). When set, PutEvents
   * answers before its deliveries are done, as EventBridge does. None when absent.
   */
  readonly deliveryLatency?: () => Promise<void>;
  /**
   * The account's IAM: a rule delivers into a queue only when the queue's policy lets
   * `events.amazonaws.com` send for that rule (`aws:SourceArn`); a refused delivery fails at once.
   */
  readonly iam?: Pick<ServiceAuthorizer, 'authorize'>;
}

/** Raised for a missing bus or rule; `code` is the EventBridge error code. */
export class EventBusError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/** Buses, rules and targets, and delivery of matching events to SQS. */
export class EventBusRegistry {
  readonly account: string;
  readonly region: string;
  private readonly buses = new Map<string, Map<string, BusRule>>([[DEFAULT_BUS_NAME, new Map()]]);
  private readonly queueUrls = new Map<string, string>();
  private readonly failures: FailedDelivery[] = [];

  constructor(private readonly options: EventBusRegistryOptions) {
    this.account = options.account ?? '000000000000';
    this.region = options.region;
  }

  /** ARN of a bus. */
  busArn(name: string): string {
    return `arn:aws:events:${this.region}:${this.account}:event-bus/${name}`;
  }

  /** Creates a custom bus; throws ResourceAlreadyExistsException when it exists. */
  createBus(name: string): string {
    if (!/^[A-Za-z0-9._/-]{1,256}$/.test(name)) {
      throw new EventBusError('ValidationException', `event bus name '${name}' is not valid`);
    }
    if (this.buses.has(name)) {
      throw new EventBusError('ResourceAlreadyExistsException', `Event bus ${name} already exists.`);
    }
    this.buses.set(name, new Map());
    return this.busArn(name);
  }

  /** Whether a bus exists (accepts a name or an ARN). */
  hasBus(nameOrArn: string): boolean {
    return this.buses.has(busName(nameOrArn));
  }

  /** Creates or replaces a rule (targets of an existing rule are kept). */
  putRule(bus: string, name: string, pattern: EventPattern, state: BusRule['state'] = 'ENABLED'): string {
    const rules = this.rulesOf(bus);
    const matcher = compileEventPattern(pattern);
    const targets = rules.get(name)?.targets ?? [];
    rules.set(name, { name, bus: busName(bus), pattern, targets, state, matcher });
    return this.ruleArn(bus, name);
  }

  /** ARN of a rule on a bus. */
  ruleArn(bus: string, name: string): string {
    return `arn:aws:events:${this.region}:${this.account}:rule/${busName(bus) === DEFAULT_BUS_NAME ? '' : `${busName(bus)}/`}${name}`;
  }

  /** Adds or replaces targets of a rule. */
  putTargets(bus: string, rule: string, targets: readonly RuleTarget[]): void {
    const existing = this.rulesOf(bus).get(rule);
    if (!existing)
      throw new EventBusError('ResourceNotFoundException', `Rule ${rule} does not exist on bus ${bus}.`);
    for (const target of targets) {
      if (!/^arn:aws:sqs:[^:]+:\d+:[^:]+$/.test(target.arn)) {
        throw new EventBusError(
          'ValidationException',
          `target ${target.id}: only SQS queue ARNs are supported`,
        );
      }
      const at = existing.targets.findIndex((t) => t.id === target.id);
      if (at >= 0) existing.targets.splice(at, 1, target);
      else existing.targets.push(target);
    }
  }

  /** The rules of a bus. */
  listRules(bus: string, prefix = ''): BusRule[] {
    return [...this.rulesOf(bus).values()].filter((rule) => rule.name.startsWith(prefix));
  }

  /** Deliveries that failed (for tests and diagnostics). */
  failedDeliveries(): readonly FailedDelivery[] {
    return this.failures;
  }

  /** Puts one event on a bus and delivers it to every matching rule's targets; returns its id. */
  async putEvent(bus: string, event: BusEvent): Promise<string> {
    const rules = this.rulesOf(bus);
    const envelope = this.envelope(event);
    const deliveries: Promise<void>[] = [];
    for (const rule of rules.values()) {
      if (rule.state !== 'ENABLED' || !rule.matcher(envelope)) continue;
      for (const target of rule.targets) deliveries.push(this.deliver(rule, target, envelope));
    }
    // With a modeled delivery latency, as in EventBridge, PutEvents answers once the event is
    // accepted and rules deliver afterwards; without one, deliveries finish before the put returns.
    if (!this.options.deliveryLatency) await Promise.all(deliveries);
    return envelope.id;
  }

  private envelope(event: BusEvent): EventEnvelope {
    const time = event.time ?? (this.options.now ?? Date.now)();
    return {
      version: '0',
      id: randomUUID(),
      'detail-type': event.detailType,
      source: event.source,
      account: this.account,
      time: new Date(time).toISOString().replace(/\.\d{3}Z$/, 'Z'),
      region: this.region,
      resources: [...(event.resources ?? [])],
      detail: event.detail,
    };
  }

  private async deliver(rule: BusRule, target: RuleTarget, envelope: EventEnvelope): Promise<void> {
    let lastError = '';
    await this.options.deliveryLatency?.();
    const refusal = this.refusal(rule, target);
    if (refusal) {
      this.failures.push({ rule: rule.name, target: target.id, eventId: envelope.id, error: refusal });
      return;
    }
    for (let attempt = 0; attempt < 3; attempt++) {
      try {
        const QueueUrl = await this.queueUrl(target.arn);
        const MessageBody = targetPayloadText(envelope, target.input, {
          name: rule.name,
          arn: this.ruleArn(rule.bus, rule.name),
        });
        await this.options.sqs.send(new SendMessageCommand({ QueueUrl, MessageBody }));
        return;
      } catch (error) {
        lastError = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
      }
    }
    this.failures.push({ rule: rule.name, target: target.id, eventId: envelope.id, error: lastError });
  }

  /** Why the account's IAM refuses this rule's delivery into its target queue, if it does. */
  private refusal(rule: BusRule, target: RuleTarget): string | undefined {
    const iam = this.options.iam;
    if (!iam) return undefined;
    const name = target.arn.split(':')[5] ?? '';
    const resource = `arn:aws:sqs:${this.region}:${this.account}:${name}`;
    const sourceArn = this.ruleArn(rule.bus, rule.name);
    const decision = iam.authorize({
      principal: 'events.amazonaws.com',
      action: 'sqs:SendMessage',
      resource,
      context: { 'aws:SourceArn': sourceArn, 'aws:SourceAccount': this.account },
    });
    return decision.allowed
      ? undefined
      : `AccessDenied: events.amazonaws.com may not sqs:SendMessage to ${resource} for ${sourceArn}`;
  }

  private async queueUrl(arn: string): Promise<string> {
    const known = this.queueUrls.get(arn);
    if (known) return known;
    const [, , , , account, name] = arn.split(':');
    const out = await this.options.sqs.send(
      new GetQueueUrlCommand({ QueueName: name, QueueOwnerAWSAccountId: account }),
    );
    if (!out.QueueUrl) throw new Error(`queue ${arn} has no URL`);
    this.queueUrls.set(arn, out.QueueUrl);
    return out.QueueUrl;
  }

  private rulesOf(bus: string): Map<string, BusRule> {
    const rules = this.buses.get(busName(bus));
    if (!rules)
      throw new EventBusError('ResourceNotFoundException', `Event bus ${busName(bus)} does not exist.`);
    return rules;
  }
}

/** The bus name of a name or an ARN (`arn:aws:events:region:account:event-bus/NAME`). */
export function busName(nameOrArn: string | undefined): string {
  if (!nameOrArn) return DEFAULT_BUS_NAME;
  const at = nameOrArn.indexOf(':event-bus/');
  return at >= 0 ? nameOrArn.slice(at + ':event-bus/'.length) : nameOrArn;
}
