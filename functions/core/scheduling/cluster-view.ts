/** Turns plain Kubernetes Nodes and Pods into the scheduler's view of existing nodes and pending pods. */
import type { Node, Pod } from '../model/kube-objects.js';
import { parseResource } from '../model/quantity.js';
import type { Resources } from '../model/resources.js';
import type { ExistingNode } from './types.js';
import { NODEPOOL } from './well-known.js';

function resources(list: Readonly<Record<string, string>> | undefined): Resources {
  const out: Resources = {};
  for (const [name, value] of Object.entries(list ?? {})) {
    try {
      out[name] = parseResource(name, value);
    } catch {
      // A resource the node reports in an unknown format is left out.
    }
  }
  return out;
}

function isTerminal(pod: Pod): boolean {
  return pod.status?.phase === 'Succeeded' || pod.status?.phase === 'Failed';
}

/** Pods waiting for a node: not bound, not terminal, not being deleted. */
export function pendingPods(pods: readonly Pod[]): Pod[] {
  return pods.filter((p) => !p.spec?.nodeName && !isTerminal(p) && !p.metadata?.deletionTimestamp);
}

/** Existing nodes with the (non-terminal) pods bound to them. */
export function existingNodes(nodes: readonly Node[], pods: readonly Pod[]): ExistingNode[] {
  const byNode = new Map<string, Pod[]>();
  for (const p of pods) {
    const name = p.spec?.nodeName;
    if (!name || isTerminal(p)) continue;
    const list = byNode.get(name) ?? [];
    list.push(p);
    byNode.set(name, list);
  }
  return nodes.map((n) => {
    const labels: Record<string, string> = {
      'kubernetes.io/hostname': n.metadata.name,
      ...(n.metadata.labels ?? {}),
    };
    return {
      name: n.metadata.name,
      labels,
      taints: n.spec?.taints ?? [],
      allocatable: resources(n.status?.allocatable ?? n.status?.capacity),
      capacity: resources(n.status?.capacity ?? n.status?.allocatable),
      pods: byNode.get(n.metadata.name) ?? [],
      nodePool: labels[NODEPOOL] ?? labels['karpenter.sh/provisioner-name'],
      unschedulable: n.spec?.unschedulable === true,
    };
  });
}
