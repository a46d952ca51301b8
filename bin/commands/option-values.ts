import { InvalidArgumentError } from 'commander';

/**
 * Parses `--seed`: a whole number from 0 to 2^32-1 (the simulated randomness is seeded with 32
 * bits). commander turns the thrown error into a usage error (exit code 2).
 */
export function parseSeed(value: string): number {
  const seed = Number(value);
  if (!/^\d+$/.test(value.trim()) || !Number.isSafeInteger(seed) || seed > 0xffffffff) {
    throw new InvalidArgumentError(`expected a whole number from 0 to 4294967295, got '${value}'`);
  }
  return seed;
}

/** Parses `--speed`: a positive number of virtual seconds per wall-clock second. */
export function parseSpeed(value: string): number {
  const speed = Number(value);
  if (value.trim() === '' || !Number.isFinite(speed) || speed <= 0) {
    throw new InvalidArgumentError(`expected a positive number such as 1, 10 or 0.5, got '${value}'`);
  }
  return speed;
}

/** A parser for `-o, --output <format>` accepting only `formats`. */
export function parseFormat<T extends string>(...formats: T[]): (value: string) => T {
  return (value) => {
    if (!(formats as string[]).includes(value)) {
      throw new InvalidArgumentError(`expected ${formats.join(' or ')}, got '${value}'`);
    }
    return value as T;
  };
}
