import type { Logger } from '@aws-lambda-powertools/logger';
import type { Clock } from '../../core/ports/clock.js';
import type { Log } from '../../core/ports/log.js';

/** Log levels in increasing severity. */
export type LogLevel = 'debug' | 'info' | 'warn' | 'error';

const ORDER: Record<LogLevel, number> = { debug: 0, info: 1, warn: 2, error: 3 };

/** The core's {@link Log} over the Powertools logger (JSON lines with the Lambda context). */
export function powertoolsLog(logger: Logger): Log {
  const write =
    (level: LogLevel) =>
    (message: string, fields?: Readonly<Record<string, unknown>>): void => {
      if (fields && Object.keys(fields).length > 0) logger[level](message, { ...fields });
      else logger[level](message);
    };
  return { debug: write('debug'), info: write('info'), warn: write('warn'), error: write('error') };
}

/** Options of {@link lineLog}. */
export interface LineLogOptions {
  /** The time printed on each line (the simulator passes its virtual clock). */
  readonly clock: Clock;
  /** Where each line goes (stdout, or a recorder in the simulator). */
  readonly sink: (line: string) => void;
  /** Lines below this level are dropped (default info). */
  readonly level?: LogLevel;
  /** The component printed after the level, like Karpenter's controller names (e.g. `provisioner`). */
  readonly name?: string;
  /** Fields added to every line. */
  readonly fields?: Readonly<Record<string, unknown>>;
}

/**
 * A {@link Log} printing Karpenter-style lines for the simulator and the CLI:
 * `2026-11-23T10:00:00.000Z INFO provisioner computed packing of 3 node(s) for 20 pod(s) {"nodeclaims":3}`.
 */
export function lineLog(options: LineLogOptions): Log {
  const threshold = ORDER[options.level ?? 'info'];
  const write =
    (level: LogLevel) =>
    (message: string, fields?: Readonly<Record<string, unknown>>): void => {
      if (ORDER[level] < threshold) return;
      const text = options.name ? `${options.name} ${message}` : message;
      options.sink(formatLine(options.clock.now(), level, text, { ...options.fields, ...fields }));
    };
  return { debug: write('debug'), info: write('info'), warn: write('warn'), error: write('error') };
}

/** One Karpenter-style line: ISO time, level, message, then the fields as JSON when there are any. */
export function formatLine(
  time: number,
  level: LogLevel,
  message: string,
  fields: Readonly<Record<string, unknown>>,
): string {
  const head = `${new Date(time).toISOString()} ${level.toUpperCase()} ${message}`;
  return Object.keys(fields).length > 0 ? `${head} ${safeJson(fields)}` : head;
}

function safeJson(fields: Readonly<Record<string, unknown>>): string {
  try {
    return JSON.stringify(fields, (_key, value) => (value instanceof Error ? value.message : value));
  } catch {
    return '{"fields":"unserialisable"}';
  }
}

/** Parses a log level name (`DEBUG`, `info`...); unknown names give `info`. */
export function parseLogLevel(name: string | undefined): LogLevel {
  const level = (name ?? '').toLowerCase();
  return level in ORDER ? (level as LogLevel) : level === 'warning' ? 'warn' : 'info';
}
