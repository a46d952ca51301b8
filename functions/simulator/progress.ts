/**
 * Progress of a long run (a simulation, a benchmark) on a stream: on a terminal one line rewritten
 * in place; elsewhere (logs, CI) whole newline-terminated lines, at most one per interval and only
 * when the text changed, so a log never gets one unbroken line of carriage returns.
 */

/** Where progress goes (process.stderr by default). */
export interface ProgressStream {
  readonly isTTY?: boolean;
  write(text: string): unknown;
}

/** Options of {@link Progress}. */
export interface ProgressOptions {
  /** Least wall time between two lines when not on a terminal. Default 2000 ms. */
  readonly intervalMs?: number;
  /** Wall clock (tests). */
  readonly now?: () => number;
}

/** A progress line. */
export class Progress {
  private last = '';
  private lastAt = Number.NEGATIVE_INFINITY;
  private open = false;
  private readonly intervalMs: number;
  private readonly now: () => number;

  constructor(
    private readonly stream: ProgressStream = process.stderr,
    options: ProgressOptions = {},
  ) {
    this.intervalMs = options.intervalMs ?? 2000;
    this.now = options.now ?? Date.now;
  }

  /** Shows `text` as the current progress. */
  update(text: string): void {
    if (text === this.last) return;
    if (this.stream.isTTY) {
      this.stream.write(`\r\x1b[K${text}`);
      this.open = true;
      this.last = text;
      return;
    }
    const at = this.now();
    if (at - this.lastAt < this.intervalMs) return;
    this.stream.write(`${text}\n`);
    this.last = text;
    this.lastAt = at;
  }

  /** Ends the progress line (on a terminal); later output starts on a fresh line. */
  done(): void {
    if (this.open) this.stream.write('\n');
    this.open = false;
    this.last = '';
  }
}
