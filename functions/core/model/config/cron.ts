/**
 * Disruption budget schedules, read as Karpenter reads them: the standard 5-field cron of
 * robfig/cron (minute, hour, day of month, month, day of week; names such as `MON` or `JAN`;
 * `?` meaning `*`) or one of its macros, always in UTC. croner evaluates them; the extensions
 * croner has and Karpenter's parser lacks (`L`, `W`, `#`, a seconds field) are refused here, so a
 * schedule joiner accepts is one Karpenter would run.
 */
import { Cron } from 'croner';

/** Karpenter's schedule macros (its CRD pattern), as the 5-field patterns robfig/cron expands them to. */
const MACROS: Readonly<Record<string, string>> = {
  '@yearly': '0 0 1 1 *',
  '@annually': '0 0 1 1 *',
  '@monthly': '0 0 1 * *',
  '@weekly': '0 0 * * 0',
  '@daily': '0 0 * * *',
  '@midnight': '0 0 * * *',
  '@hourly': '0 * * * *',
};

const FIELD_NAMES = ['minute', 'hour', 'day of month', 'month', 'day of week'] as const;
const NAMES = /(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec|sun|mon|tue|wed|thu|fri|sat)/gi;
const FIELD = /^[0-9*?,/-]+$/;

/** A schedule parsed into a 5-field pattern, or why it cannot be. */
type Parsed = { readonly pattern: string } | { readonly problem: string };

function normalise(schedule: string): Parsed {
  const text = schedule.trim();
  if (text.startsWith('@')) {
    const pattern = MACROS[text];
    if (pattern !== undefined) return { pattern };
    return { problem: `unknown macro ${text}` };
  }
  const fields = text.split(/\s+/);
  if (fields.length !== 5) {
    return {
      problem: `expected 5 fields (minute hour day-of-month month day-of-week), found ${fields.length}`,
    };
  }
  for (const [i, field] of fields.entries()) {
    if (!FIELD.test(field.replace(NAMES, '0'))) {
      return { problem: `${FIELD_NAMES[i]} field "${field}" is not standard cron` };
    }
  }
  return { pattern: fields.map((f) => (f === '?' ? '*' : f)).join(' ') };
}

function compile(pattern: string): Cron {
  // A fixed offset of 0 is UTC, and far quicker to step through than the `UTC` time zone.
  return new Cron(pattern, { utcOffset: 0, paused: true });
}

/**
 * Why `schedule` is not a budget schedule Karpenter accepts, or `undefined` when it is one.
 * For `61 * * * *`: `invalid value for minute: 61`.
 */
export function scheduleProblem(schedule: string): string | undefined {
  const parsed = normalise(schedule);
  if ('problem' in parsed) return parsed.problem;
  try {
    compile(parsed.pattern);
    return undefined;
  } catch (e) {
    const message = (e as Error).message.replace(/^CronPattern:\s*/, '');
    return message.charAt(0).toLowerCase() + message.slice(1);
  }
}

const cache = new Map<string, Cron | null>();

/**
 * The compiled UTC schedule, or `null` when `schedule` is not one Karpenter accepts (see
 * {@link scheduleProblem}). Compiled schedules are kept, as budgets are read on every pass.
 */
export function budgetSchedule(schedule: string): Cron | null {
  const known = cache.get(schedule);
  if (known !== undefined) return known;
  const parsed = normalise(schedule);
  let cron: Cron | null = null;
  if ('pattern' in parsed) {
    try {
      cron = compile(parsed.pattern);
    } catch {
      cron = null;
    }
  }
  cache.set(schedule, cron);
  return cron;
}
