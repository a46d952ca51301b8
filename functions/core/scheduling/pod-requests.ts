/** What a pod asks of a node: effective requests as the kube-scheduler computes them. */
import type { Container, Pod } from '../model/kube-objects.js';
import { parseResource } from '../model/quantity.js';
import { PODS, type Resources } from '../model/resources.js';

function containerRequests(container: Container, where: string): Resources {
  const out: Resources = {};
  const requests = container.resources?.requests ?? {};
  const limits = container.resources?.limits ?? {};
  // A limit without a request defaults the request to the limit.
  for (const [name, value] of Object.entries({ ...limits, ...requests })) {
    try {
      const amount = parseResource(name, value);
      // The API server refuses negative requests; one that got here must not make room on a node.
      if (amount < 0) throw new Error(`quantity ${JSON.stringify(value)} must not be negative`);
      out[name] = amount;
    } catch (error) {
      throw new Error(`${where} container ${container.name} resource ${name}: ${(error as Error).message}`);
    }
  }
  return out;
}

function addInto(target: Resources, add: Resources): void {
  for (const [k, v] of Object.entries(add)) target[k] = (target[k] ?? 0) + v;
}

/**
 * Effective requests of a pod: the sum over containers (and restartable init containers, i.e.
 * sidecars), or the largest plain init container if larger, plus the pod overhead; `pods: 1`.
 * Throws an Error naming the pod and container on an invalid quantity.
 */
export function podRequests(pod: Pod): Resources {
  const where = `pod ${pod.metadata?.namespace ?? 'default'}/${pod.metadata?.name}`;
  const total: Resources = {};
  for (const c of pod.spec?.containers ?? []) addInto(total, containerRequests(c, where));
  const sidecars: Resources = {};
  const initPeak: Resources = {};
  for (const init of pod.spec?.initContainers ?? []) {
    const req = containerRequests(init, where);
    if (init.restartPolicy === 'Always') {
      addInto(sidecars, req);
      continue;
    }
    // A plain init container runs alone, next to the sidecars started before it.
    for (const [k, v] of Object.entries(req))
      initPeak[k] = Math.max(initPeak[k] ?? 0, v + (sidecars[k] ?? 0));
  }
  addInto(total, sidecars);
  for (const [k, v] of Object.entries(initPeak)) total[k] = Math.max(total[k] ?? 0, v);
  for (const [name, value] of Object.entries(pod.spec?.overhead ?? {})) {
    total[name] = (total[name] ?? 0) + parseResource(name, value);
  }
  total[PODS] = 1;
  return total;
}
