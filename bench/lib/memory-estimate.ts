/**
 * What one invocation of a function would use of its configured memory. The simulator runs every
 * handler in one process with the simulated cloud, so no process measure belongs to one invocation
 * (the heap high-water mark bench:scale also prints is the whole process's, an upper bound that
 * grows with the simulated cluster). The estimate is the function's resting footprint plus what the
 * invocation held of what it read:
 *
 * - {@link RESTING_MIB}: a fresh Node.js process that has imported a handler's bundle has 51-55 MiB
 *   resident (measured for the webhook, provisioner, lifecycle, disruption and interruption
 *   bundles, built as the stack builds them); rounded up for the Lambda runtime's own client.
 * - {@link HELD_PER_BYTE_READ}: the answers' bodies as text (1 byte per character), parsed
 *   (1.3 bytes of heap per byte of JSON, measured on a 20 MB list of pods) and the typed model
 *   built from them (about as much again), all held at once in the worst case.
 *
 * It is a model, not a measurement: it says whether an invocation is near its limit, and grows
 * with what the invocation reads, which is what grows with the cluster.
 */

/** MiB resident before an invocation reads anything. */
export const RESTING_MIB = 64;

/** Bytes of memory held per byte of answer read. */
export const HELD_PER_BYTE_READ = 4;

/** Estimated peak MiB of an invocation that read `bytesRead` bytes of answers. */
export function estimatedMemoryMiB(bytesRead: number): number {
  if (!(bytesRead >= 0))
    throw new Error(`estimatedMemoryMiB: bytesRead must be a number >= 0, got ${bytesRead}`);
  return RESTING_MIB + (bytesRead * HELD_PER_BYTE_READ) / 2 ** 20;
}
