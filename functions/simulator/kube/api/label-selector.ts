/**
 * Kubernetes label selectors: the string form of list/watch queries (`a=b,c!=d,e in (x,y),f notin
 * (z),g,!h`) and the structured `LabelSelector` of objects (matchLabels + matchExpressions).
 */
import type { LabelSelector } from '../../../core/model/kube-objects.js';
import { badRequest } from './api-error.js';

/** One parsed requirement. */
export interface LabelRequirement {
  readonly key: string;
  readonly op: 'in' | 'notin' | 'exists' | '!exists';
  readonly values: readonly string[];
}

/** A parsed selector: every requirement must hold (an empty selector matches everything). */
export type ParsedLabelSelector = readonly LabelRequirement[];

const SET_OP = /^\s*(!?)\s*([A-Za-z0-9._/-]+)\s+(in|notin)\s*\(([^)]*)\)\s*$/;
const EQ_OP = /^\s*([A-Za-z0-9._/-]+)\s*(==|=|!=)\s*([A-Za-z0-9._-]*)\s*$/;
const EXISTS = /^\s*(!?)\s*([A-Za-z0-9._/-]+)\s*$/;

/** Splits on commas that are not inside parentheses. */
function splitTerms(input: string): string[] {
  const terms: string[] = [];
  let depth = 0;
  let current = '';
  for (const ch of input) {
    if (ch === '(') depth++;
    if (ch === ')') depth--;
    if (ch === ',' && depth === 0) {
      terms.push(current);
      current = '';
    } else current += ch;
  }
  terms.push(current);
  return terms.filter((t) => t.trim() !== '');
}

/** Parses the string form; throws a 400 naming the bad term. */
export function parseLabelSelector(input: string | undefined): ParsedLabelSelector {
  if (!input) return [];
  return splitTerms(input).map((term): LabelRequirement => {
    const set = SET_OP.exec(term);
    if (set && set[1] === '') {
      const values = set[4]
        .split(',')
        .map((v) => v.trim())
        .filter((v) => v !== '');
      return { key: set[2], op: set[3] as 'in' | 'notin', values };
    }
    const eq = EQ_OP.exec(term);
    if (eq) return { key: eq[1], op: eq[2] === '!=' ? 'notin' : 'in', values: [eq[3]] };
    const ex = EXISTS.exec(term);
    if (ex) return { key: ex[2], op: ex[1] === '!' ? '!exists' : 'exists', values: [] };
    throw badRequest(
      `unable to parse requirement: invalid label selector term ${JSON.stringify(term.trim())}`,
    );
  });
}

/** Whether `labels` satisfy every requirement. */
export function matchesParsed(
  selector: ParsedLabelSelector,
  labels: Record<string, string> | undefined,
): boolean {
  const l = labels ?? {};
  return selector.every((r) => {
    const has = Object.hasOwn(l, r.key);
    switch (r.op) {
      case 'in':
        return has && r.values.includes(l[r.key]);
      case 'notin':
        return !has || !r.values.includes(l[r.key]);
      case 'exists':
        return has;
      default:
        return !has;
    }
  });
}

/** Converts an object's structured `LabelSelector` into requirements. */
export function fromLabelSelector(selector: LabelSelector): ParsedLabelSelector {
  const reqs: LabelRequirement[] = Object.entries(selector.matchLabels ?? {}).map(([key, v]) => ({
    key,
    op: 'in',
    values: [v],
  }));
  for (const e of selector.matchExpressions ?? []) {
    const op = { In: 'in', NotIn: 'notin', Exists: 'exists', DoesNotExist: '!exists' }[e.operator];
    if (!op) throw badRequest(`label selector operator ${JSON.stringify(e.operator)} is not valid`);
    reqs.push({ key: e.key, op: op as LabelRequirement['op'], values: e.values ?? [] });
  }
  return reqs;
}

/**
 * Whether labels match a structured selector. As in Kubernetes, a missing selector matches nothing
 * and an empty one (`{}`) matches everything.
 */
export function matchesLabelSelector(
  selector: LabelSelector | undefined,
  labels?: Record<string, string>,
): boolean {
  if (!selector) return false;
  return matchesParsed(fromLabelSelector(selector), labels);
}

/** The string form of a structured selector (as `Scale.status.selector` shows it). */
export function formatLabelSelector(selector: LabelSelector | undefined): string {
  if (!selector) return '';
  return fromLabelSelector(selector)
    .map((r) => {
      if (r.op === 'exists') return r.key;
      if (r.op === '!exists') return `!${r.key}`;
      if (r.op === 'in' && r.values.length === 1) return `${r.key}=${r.values[0]}`;
      return `${r.key} ${r.op} (${r.values.join(',')})`;
    })
    .join(',');
}
