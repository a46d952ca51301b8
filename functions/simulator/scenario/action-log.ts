/**
 * joiner's actions during a scenario, for the report's timeline: taken from the Karpenter-style
 * log lines its handlers write (`<time> <LEVEL> <function> <message> {fields}`), the same lines a
 * user reads in CloudWatch. Each action has a kind, its virtual time, the function and the
 * reason as logged.
 */

/** Kinds of actions the report shows. */
export const ACTION_KINDS = ['launch', 'disruption', 'interruption', 'replacement', 'capacity'] as const;

export type ActionKind = (typeof ACTION_KINDS)[number];

/** One action. */
export interface Action {
  /** Virtual epoch ms. */
  readonly at: number;
  readonly kind: ActionKind;
  readonly function: string;
  readonly message: string;
  /** Node, nodeclaim, instance type... as logged. */
  readonly fields: Readonly<Record<string, unknown>>;
}

const RULES: ReadonlyArray<readonly [RegExp, ActionKind]> = [
  [/^(launched nodeclaim|adopted instance of nodeclaim)/, 'launch'],
  [/^disrupting node\(s\) via replace/, 'replacement'],
  [/^(disrupting node\(s\)|terminated node|terminated orphaned instance|deleted nodeclaim)/, 'disruption'],
  [
    /^(interruption:|instance is going away|instance received a rebalance|scheduled change|interrupted instance)/,
    'interruption',
  ],
  [
    /^(marked offering\(s\) unavailable|nodeclaim launch timed out|nodeclaim registration timed out)/,
    'capacity',
  ],
];

const LINE = /^(\S+) (DEBUG|INFO|WARN|ERROR) (\S+) (.*?)(?: (\{.*\}))?$/;

/** Collects actions from log lines. */
export class ActionLog {
  private readonly list: Action[] = [];

  /** Reads one log line; lines that are not actions are ignored. Returns the action it read, if any. */
  read(line: string): Action | undefined {
    const match = LINE.exec(line);
    if (!match) return undefined;
    const [, time, , fn, message, json] = match;
    const kind = RULES.find(([pattern]) => pattern.test(message))?.[1];
    if (!kind) return undefined;
    const at = Date.parse(time);
    if (Number.isNaN(at)) return undefined;
    const action: Action = { at, kind, function: fn, message, fields: parseFields(json) };
    this.list.push(action);
    if (this.list.length > 20_000) this.list.shift();
    return action;
  }

  /** The actions so far, in log order. */
  actions(): readonly Action[] {
    return this.list;
  }
}

function parseFields(json: string | undefined): Record<string, unknown> {
  if (!json) return {};
  try {
    const value = JSON.parse(json) as unknown;
    return value && typeof value === 'object' ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}
