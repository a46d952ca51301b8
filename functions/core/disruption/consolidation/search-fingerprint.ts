/**
 * What a consolidation search depends on, as one hash, so a search that found nothing is not run
 * again on the same cluster (Karpenter keeps the same memory: its consolidation marks the cluster
 * "consolidated" and looks again only once the cluster's state changed). The search is a pure
 * function of its inputs: the candidates in the order they are tried, the nodes and pods it plans
 * on (what the scheduler reads of them: labels, taints, capacity, the pods' specs and owners), the
 * volumes and DaemonSets, the NodePools with the instance types and offerings they can launch now
 * (prices, capacity marks, zones) and each NodePool's budget. Anything else about an object (its
 * resourceVersion, heartbeats, status conditions) does not change the answer and is left out.
 */
import { createHash } from 'node:crypto';
import type { Node, Pod } from '../../model/kube-objects.js';
import type { Candidate } from './candidates.js';
import type { SimulationCluster } from './removal-simulation.js';

/** What a consolidation function instance remembers between its rounds. */
export interface ConsolidationMemory {
  /** {@link searchFingerprint} of the last cluster a complete search found no move in. */
  emptySearch?: string;
}

/** Everything a search reads. */
export interface SearchInputs {
  readonly cluster: SimulationCluster;
  readonly candidates: readonly Candidate[];
  /** Nodes each NodePool may still lose now. */
  readonly allowed: (pool: string) => number;
}

/** The sha256 of what the search reads (see the file comment). */
export function searchFingerprint(inputs: SearchInputs): string {
  const { cluster, candidates, allowed } = inputs;
  const hash = createHash('sha256');
  const add = (part: string, value: unknown): void => {
    hash.update(part);
    // Plain JSON: the same objects read the same way serialize the same; should a list or a
    // map come back in another order, the fingerprint differs and the round only searches again.
    hash.update(JSON.stringify(value) ?? 'null');
    hash.update('\n');
  };
  add(
    'candidates',
    candidates.map((c) => [c.claim.id, c.node.metadata.name, c.pool.name, c.price]),
  );
  for (const pool of cluster.pools) {
    add('pool', { pool: pool.pool, nodeClass: pool.nodeClass, problem: pool.problem });
    add('allowed', [pool.pool.name, allowed(pool.pool.name)]);
    for (const type of pool.instanceTypes) add('type', type);
  }
  // In the order given: the order the scheduler meets them in can change where pods go.
  for (const node of cluster.nodes) add('node', nodeInputs(node));
  for (const pod of cluster.boundPods) add('pod', podInputs(pod));
  add('leaving', [...cluster.leaving].sort());
  add('daemonSets', cluster.daemonSets);
  add('persistentVolumes', cluster.persistentVolumes);
  add('persistentVolumeClaims', cluster.persistentVolumeClaims);
  add('storageClasses', cluster.storageClasses ?? []);
  return hash.digest('hex');
}

/** What the scheduler reads of a node. */
function nodeInputs(node: Node): unknown {
  return {
    name: node.metadata.name,
    labels: node.metadata.labels,
    taints: node.spec?.taints,
    unschedulable: node.spec?.unschedulable,
    allocatable: node.status?.allocatable,
    capacity: node.status?.capacity,
  };
}

/** What the scheduler and the drain read of a pod: all but its version and its status details. */
function podInputs(pod: Pod): unknown {
  const {
    resourceVersion: _version,
    managedFields: _fields,
    ...metadata
  } = pod.metadata as Pod['metadata'] & {
    resourceVersion?: string;
    managedFields?: unknown;
  };
  return { metadata, spec: pod.spec, phase: pod.status?.phase };
}
