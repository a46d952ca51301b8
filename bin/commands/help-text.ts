import type { Command } from 'commander';

/** The exit codes every joiner command uses (printed in `joiner --help`, tested per command). */
export const EXIT_CODES =
  'Exit codes (every command):\n' +
  '  0  success\n' +
  '  1  the answer is "no": a document is invalid (validate), a pod cannot be scheduled (plan),\n' +
  '     an expectation failed (simulate), the cloud refused or failed (catalog fetch, sim up)\n' +
  '  2  bad input: an unknown command or option, a bad option value, a missing or unreadable file';

/**
 * Appends an "Examples:" section to a command's `--help`: each entry is a command line and what
 * it does, printed as `  $ joiner ...` followed by the explanation.
 */
export function withExamples(command: Command, examples: readonly (readonly [string, string])[]): Command {
  const lines = examples.map(([line, what]) => `  $ ${line}\n      ${what}`);
  return command.addHelpText('after', `\nExamples:\n${lines.join('\n')}\n`);
}
