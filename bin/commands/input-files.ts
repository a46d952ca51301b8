import type { Command } from 'commander';

/** Appends one `-f` value (commander's collector for repeatable options). */
export function collectFile(value: string, previous: string[]): string[] {
  return [...previous, value];
}

/**
 * The files a command reads: its positional arguments and every `-f`. With none, the command
 * stops with an error and its usage (exit code 2).
 */
export function inputFiles(
  command: Command,
  positional: readonly string[],
  flagged: readonly string[],
): string[] {
  const files = [...positional, ...flagged];
  if (files.length === 0) {
    command.error(
      `error: joiner ${command.name()} needs input: give FILE... or -f FILE (a file or a directory)`,
      {
        exitCode: 2,
        code: 'joiner.missingInput',
      },
    );
  }
  return files;
}
