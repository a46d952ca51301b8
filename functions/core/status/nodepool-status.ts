/**
 * A NodePool's status as Karpenter writes it: the resources of its nodes (`cpu`, `memory`,
 * `pods`, `ephemeral-storage`, and `nodes`, the count of its live nodeclaims, also `status.nodes`)
 * against its limits,
 * and conditions `NodeClassReady` (with the reason its NodeClass does not resolve),
 * `LaunchSucceeded` (False, naming the refused permission or the error, while its latest launch
 * failed for a reason no other offering fixes) and `Ready`.
 */
import type { Node } from '../model/kube-objects.js';
import type { NodePool } from '../model/node-pool.js';
import { formatBytes, formatCpu, parseResource } from '../model/quantity.js';
import type { NodeClaim } from '../nodeclaim/nodeclaim.js';
import { type Condition, condition } from './conditions.js';
import type { NodeClassReadiness } from './nodeclass-status.js';

/** What a NodePool's status is computed from. */
export interface NodePoolStatusInput {
  readonly pool: NodePool;
  /** Its live (not Gone) nodeclaims. */
  readonly claims: readonly NodeClaim[];
  /** Its nodes (label `karpenter.sh/nodepool` = the pool's name). */
  readonly nodes: readonly Node[];
  /** Its NodeClass: resolved, failing (and why), or missing. */
  readonly nodeClass: NodeClassReadiness | undefined;
  /**
   * Its latest launch failure that no other offering fixes (a refused permission, a bad
   * parameter), when no launch of the pool succeeded after it; see {@link latestLaunchFailure}.
   */
  readonly launchFailure?: LaunchFailure;
  readonly now: number;
}

/** A launch failure a NodePool reports. */
export interface LaunchFailure {
  readonly reason: string;
  readonly message: string;
  /** Epoch ms the claim failed. */
  readonly at: number;
}

/** How long a launch failure is reported without a newer launch of the pool to replace it. */
export const LAUNCH_FAILURE_REPORTED_MS = 60 * 60_000;

/**
 * The pool's latest launch failure among `claims` (every state, Gone included) whose reason is
 * one of `reasons`, unless a claim of the pool launched after it or it is older than
 * {@link LAUNCH_FAILURE_REPORTED_MS}.
 */
export function latestLaunchFailure(
  claims: readonly NodeClaim[],
  reasons: readonly string[],
  now: number,
): LaunchFailure | undefined {
  let failure: LaunchFailure | undefined;
  let launchedAt = 0;
  for (const c of claims) {
    launchedAt = Math.max(launchedAt, c.timestamps.Launched ?? 0);
    const at = c.timestamps.Gone;
    if (c.state !== 'Gone' || at === undefined || c.instance || !c.failure) continue;
    if (!reasons.includes(c.failure.reason) || (failure && failure.at >= at)) continue;
    failure = { reason: c.failure.reason, message: c.failure.message, at };
  }
  if (!failure || failure.at < launchedAt || now - failure.at > LAUNCH_FAILURE_REPORTED_MS) return undefined;
  return failure;
}

const SUMMED = ['cpu', 'memory', 'pods', 'ephemeral-storage'];

function format(name: string, value: number): string {
  if (name === 'cpu') return formatCpu(value);
  if (name === 'memory' || name === 'ephemeral-storage') return formatBytes(value);
  return String(value);
}

/** The `status` of the NodePool. */
export function nodePoolStatus(input: NodePoolStatusInput): {
  resources: Record<string, string>;
  /** The pool's node count (Karpenter v1.8 `status.nodes`, the scale subresource's count). */
  nodes: number;
  conditions: Condition[];
} {
  const totals = new Map<string, number>(SUMMED.map((n) => [n, 0]));
  for (const node of input.nodes) {
    for (const name of SUMMED) {
      const q = node.status?.capacity?.[name];
      if (q !== undefined) totals.set(name, (totals.get(name) ?? 0) + parseResource(name, q));
    }
  }
  const resources: Record<string, string> = { nodes: String(input.claims.length) };
  for (const [name, value] of totals) resources[name] = format(name, value);
  const ref = input.pool.nodeClassRef;
  const nc = input.nodeClass;
  const classReady = !nc
    ? condition(
        'NodeClassReady',
        'False',
        'NodeClassNotFound',
        `${ref.kind} ${ref.name} not found or invalid`,
        input.now,
      )
    : nc.ready
      ? condition('NodeClassReady', 'True', 'NodeClassReady', '', input.now)
      : condition('NodeClassReady', 'False', nc.reason, nc.message, input.now);
  const over = Object.entries(input.pool.limits)
    .filter(([name, limit]) => limit !== undefined && (totals.get(name) ?? 0) >= limit)
    .map(([name]) => name);
  const failure = input.launchFailure;
  const launch = failure
    ? condition('LaunchSucceeded', 'False', failure.reason, failure.message, failure.at)
    : condition('LaunchSucceeded', 'True', 'LaunchSucceeded', '', input.now);
  const conditions = [
    condition('ValidationSucceeded', 'True', 'ValidationSucceeded', '', input.now),
    classReady,
    launch,
    classReady.status !== 'True'
      ? condition('Ready', 'False', 'NodeClassNotReady', `NodeClass: ${classReady.message}`, input.now)
      : failure
        ? condition('Ready', 'False', failure.reason, `Launch: ${failure.message}`, input.now)
        : condition(
            'Ready',
            'True',
            'Ready',
            over.length > 0 ? `limits reached: ${over.join(', ')}` : '',
            input.now,
          ),
  ];
  return { resources, nodes: input.claims.length, conditions };
}
