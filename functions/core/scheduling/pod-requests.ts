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

/** Resources a pod-level `spec.resources` may set (the kube-scheduler ignores others there). */
function podLevelSupported(name: string): boolean {
  return name === 'cpu' || name === 'memory' || name.startsWith('hugepages-');
}

/**
 * Pod-level requests (`spec.resources`, KEP-2837): a pod-level limit without a request defaults
 * the request, as the API server's defaulting does; only cpu, memory and hugepages count.
 */
function podLevelRequests(pod: Pod, where: string): Resources {
  const out: Resources = {};
  const level = pod.spec?.resources;
  if (!level) return out;
  for (const [name, value] of Object.entries({ ...(level.limits ?? {}), ...(level.requests ?? {}) })) {
    if (!podLevelSupported(name)) continue;
    try {
      out[name] = parseResource(name, value);
    } catch (error) {
      throw new Error(`${where} spec.resources ${name}: ${(error as Error).message}`);
    }
  }
  return out;
}

/**
 * Effective requests of a pod, as the kube-scheduler's NodeResourcesFit computes them: the sum
 * over containers and restartable init containers (sidecars, `restartPolicy: Always`), or, when
 * larger per resource, the largest plain init container plus the sidecars started before it; a
 * pod-level request (`spec.resources`) replaces that sum for its resource; then the pod overhead
 * (`spec.overhead`, set from the RuntimeClass's `overhead.podFixed`) is added; `pods: 1`.
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
  Object.assign(total, podLevelRequests(pod, where));
  for (const [name, value] of Object.entries(pod.spec?.overhead ?? {})) {
    try {
      total[name] = (total[name] ?? 0) + parseResource(name, value);
    } catch (error) {
      throw new Error(`${where} spec.overhead ${name}: ${(error as Error).message}`);
    }
  }
  total[PODS] = 1;
  return total;
}
