/**
 * The EC2NodeClass launch backoff: after EC2 terminated an instance during launch for a cause tied
 * to the NodeClass (launch-termination.ts: an unusable KMS key, the volume limit...), its NodePools
 * launch nothing for a while, so a bad configuration is not relaunched every few seconds. The wait
 * doubles with each failure in a row (1, 2, 4, 8 minutes, at most 15), counted from the failed
 * nodeclaims themselves (every invocation reads the same records: nothing else is stored):
 * - only failures under the NodeClass as it is now count (same drift hash): an edit of the
 *   NodeClass (a new kmsKeyID) ends the backoff at once;
 * - a claim of the NodeClass whose node registered after a failure ends the series;
 * - failures of claims launched during one wait (a burst of claims of one run) count once.
 * While the last failure is unresolved (no registration since, within the hour the status reports
 * launch failures), the NodeClass and its NodePools show it as not Ready, with the reason.
 */
import { nodeClassDriftHash } from '../disruption/drift-hashes.js';
import type { NodeClass } from '../model/node-class.js';
import type { NodeClaim } from '../nodeclaim/nodeclaim.js';
import { NODECLASS_LAUNCH_FAILURE_REASONS } from './launch-termination.js';

/** The first wait after a failure; each failure in a row doubles it. */
export const NODECLASS_BACKOFF_BASE_MS = 60_000;
/** The longest wait between two launches of a failing NodeClass. */
export const NODECLASS_BACKOFF_MAX_MS = 15 * 60_000;
/** How long an unresolved failure is reported on the NodeClass and its NodePools. */
export const NODECLASS_FAILURE_REPORTED_MS = 60 * 60_000;

/** A NodeClass whose launches fail: why, how often in a row, and until when it launches nothing. */
export interface NodeClassLaunchFailure {
  readonly nodeClass: string;
  readonly reason: string;
  /** The latest failure's message (EC2's state reason and what to do). */
  readonly message: string;
  /** Failures in a row (counted once per wait). */
  readonly failures: number;
  /** Epoch ms of the latest failure. */
  readonly at: number;
  /** Epoch ms until which its NodePools launch nothing (in the past once the wait is over). */
  readonly until: number;
}

/** The wait after the `n`th failure in a row. */
export function backoffMs(n: number): number {
  return Math.min(NODECLASS_BACKOFF_MAX_MS, NODECLASS_BACKOFF_BASE_MS * 2 ** Math.max(0, n - 1));
}

/** When a claim failed (entered Terminating, else Gone), if it failed for a NodeClass cause. */
function failedAt(claim: NodeClaim): number | undefined {
  if (!claim.failure || !NODECLASS_LAUNCH_FAILURE_REASONS.includes(claim.failure.reason)) return undefined;
  if (claim.state !== 'Terminating' && claim.state !== 'Gone') return undefined;
  return claim.timestamps.Terminating ?? claim.timestamps.Gone;
}

/**
 * The unresolved launch failure of each NodeClass among `nodeClasses`, from every claim (Gone ones
 * included), at `now` (see the file comment). NodeClasses without one are absent.
 */
export function nodeClassLaunchFailures(
  claims: readonly NodeClaim[],
  nodeClasses: readonly NodeClass[],
  now: number,
): Map<string, NodeClassLaunchFailure> {
  const out = new Map<string, NodeClassLaunchFailure>();
  for (const nodeClass of nodeClasses) {
    const hash = nodeClassDriftHash(nodeClass);
    const own = claims.filter((c) => c.nodeClass === nodeClass.name);
    const registered = own.reduce((max, c) => Math.max(max, c.timestamps.Registered ?? 0), 0);
    const failed = own
      .flatMap((c) => {
        const at = failedAt(c);
        return at !== undefined && at > registered && c.nodeClassHash === hash ? [{ claim: c, at }] : [];
      })
      .sort((a, b) => a.at - b.at || a.claim.id.localeCompare(b.claim.id));
    let failures = 0;
    let until = Number.NEGATIVE_INFINITY;
    let latest: (typeof failed)[number] | undefined;
    for (const f of failed) {
      latest = f;
      const launchedAt = f.claim.timestamps.Launched ?? f.claim.timestamps.Pending ?? f.at;
      // A claim launched while the NodeClass waited (before the wait began, in the same burst) adds no step.
      if (failures > 0 && launchedAt < until - backoffMs(failures)) continue;
      failures++;
      until = f.at + backoffMs(failures);
    }
    if (!latest || now - latest.at > NODECLASS_FAILURE_REPORTED_MS) continue;
    const failure = latest.claim.failure as NonNullable<NodeClaim['failure']>;
    out.set(nodeClass.name, {
      nodeClass: nodeClass.name,
      reason: failure.reason,
      message: failure.message,
      failures,
      at: latest.at,
      until,
    });
  }
  return out;
}

/** The NodeClasses that launch nothing at `now`, with the problem their pods are told. */
export function launchBlocks(
  failures: ReadonlyMap<string, NodeClassLaunchFailure>,
  now: number,
): Map<string, string> {
  const out = new Map<string, string>();
  for (const f of failures.values()) {
    if (now >= f.until) continue;
    out.set(f.nodeClass, blockedMessage(f));
  }
  return out;
}

/** One line for the NodeClass / NodePool condition and the pods: what failed and when launches resume. */
export function blockedMessage(f: NodeClassLaunchFailure): string {
  const resume = `launches resume at ${new Date(f.until).toISOString()} or when the NodeClass changes`;
  return `${f.reason} (${f.failures} launch failure(s) in a row; ${resume}): ${f.message}`;
}

/** The status message of an unresolved failure at `now`: the wait's end, or that launches are allowed again. */
export function failureStatusMessage(f: NodeClassLaunchFailure, now: number): string {
  if (now < f.until) return blockedMessage(f);
  return `${f.reason} (${f.failures} launch failure(s) in a row, the latest at ${new Date(f.at).toISOString()}; launches are tried again): ${f.message}`;
}
