/**
 * Where the core writes what it did and why. Handlers pass the Powertools logger (JSON lines in
 * CloudWatch); the simulator and the CLI pass a logger that prints Karpenter-style lines.
 * Messages read like Karpenter's ("computed packing of 3 node(s) for 20 pod(s)"); the structured
 * fields carry the ids (nodeclaim, instance, pods) a person needs to follow one decision.
 */
export interface Log {
  debug(message: string, fields?: Readonly<Record<string, unknown>>): void;
  info(message: string, fields?: Readonly<Record<string, unknown>>): void;
  warn(message: string, fields?: Readonly<Record<string, unknown>>): void;
  error(message: string, fields?: Readonly<Record<string, unknown>>): void;
}

/** A log that drops everything (tests that do not look at logs). */
export const silentLog: Log = { debug() {}, info() {}, warn() {}, error() {} };
