/**
 * A NodePool's status as Karpenter writes it: the resources of its nodes (`cpu`, `memory`,
 * `pods`, `ephemeral-storage`, and `nodes`, the count of its live nodeclaims) against its limits,
 * and conditions `NodeClassReady` (with the reason its NodeClass does not resolve) and `Ready`.
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
  readonly now: number;
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
  const conditions = [
    condition('ValidationSucceeded', 'True', 'ValidationSucceeded', '', input.now),
    classReady,
    classReady.status === 'True'
      ? condition(
          'Ready',
          'True',
          'Ready',
          over.length > 0 ? `limits reached: ${over.join(', ')}` : '',
          input.now,
        )
      : condition('Ready', 'False', 'NodeClassNotReady', `NodeClass: ${classReady.message}`, input.now),
  ];
  return { resources, conditions };
}
