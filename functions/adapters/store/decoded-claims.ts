/**
 * The claims an execution environment decoded, by item: a warm function lists the same nodeclaims
 * again and again (every drain step, sweep and provisioning run reads them), and most of them have
 * not changed since its last read. A claim whose item holds the same compressed bytes is handed
 * back without decompressing and parsing it again.
 *
 * The claims handed out are frozen, nested parts included: callers build changed claims as new
 * objects (as the core does everywhere), so one caller can never change what another reads.
 */
import type { NodeClaim } from '../../core/nodeclaim/nodeclaim.js';

/** A claim as decoded, without its version (the item's version attribute is the truth). */
export type StoredClaim = Omit<NodeClaim, 'version'>;

interface Entry {
  readonly bytes: Uint8Array;
  readonly claim: StoredClaim;
}

/** How many decoded claims an environment keeps (about twice the nodeclaims of a large cluster). */
const MAX_ENTRIES = 1024;

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}

/** Decoded claims by item key (see the file comment); the oldest go first past {@link MAX_ENTRIES}. */
export class DecodedClaims {
  private readonly entries = new Map<string, Entry>();

  constructor(private readonly maxEntries = MAX_ENTRIES) {}

  /** The claim `bytes` hold for item `key`: the one decoded before when the bytes are the same. */
  decode(key: string, bytes: Uint8Array, decode: (bytes: Uint8Array) => StoredClaim): StoredClaim {
    const known = this.entries.get(key);
    if (known && Buffer.compare(known.bytes, bytes) === 0) return known.claim;
    const claim = deepFreeze(decode(bytes));
    this.entries.delete(key);
    this.entries.set(key, { bytes: Uint8Array.from(bytes), claim });
    if (this.entries.size > this.maxEntries) {
      const oldest = this.entries.keys().next().value as string;
      this.entries.delete(oldest);
    }
    return claim;
  }

  /** How many claims are kept. */
  get size(): number {
    return this.entries.size;
  }
}
