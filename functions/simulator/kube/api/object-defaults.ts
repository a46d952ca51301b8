/**
 * What the API server fills in when an object is created: uid, creationTimestamp, generation,
 * a name from generateName, and the defaults joiner relies on for pods.
 */
import type { SeededRandom } from '../../clock.js';
import type { KubeObject } from './object-store.js';

const ALPHABET = 'bcdfghjklmnpqrstvwxz2456789';

/** Five random characters from the alphabet Kubernetes uses for generated name suffixes. */
export function randomSuffix(random: SeededRandom, length = 5): string {
  let out = '';
  for (let i = 0; i < length; i++) out += ALPHABET[random.int(0, ALPHABET.length - 1)];
  return out;
}

const HEX = '0123456789abcdef';

/** A random UUID (v4 layout) from the seeded source, so runs repeat. */
export function randomUid(random: SeededRandom): string {
  const hex = (n: number): string => {
    let out = '';
    for (let i = 0; i < n; i++) out += HEX[random.int(0, 15)];
    return out;
  };
  return `${hex(8)}-${hex(4)}-4${hex(3)}-${(8 + random.int(0, 3)).toString(16)}${hex(3)}-${hex(12)}`;
}

/** RFC 3339 timestamp with second precision, as Kubernetes writes them. */
export function timestamp(ms: number): string {
  return new Date(Math.floor(ms / 1000) * 1000).toISOString().replace('.000Z', 'Z');
}

/** Stamps the server-owned metadata of a new object. */
export function defaultMetadata(obj: KubeObject, random: SeededRandom, nowMs: number): void {
  const meta = obj.metadata;
  if (!meta.name && meta.generateName) meta.name = `${meta.generateName}${randomSuffix(random)}`;
  meta.uid = randomUid(random);
  meta.creationTimestamp = timestamp(nowMs);
  meta.generation = 1;
  delete meta.deletionTimestamp;
  delete meta.resourceVersion;
}

/** The label the real API server keeps on every namespace (what namespaceSelectors key on). */
export const NAMESPACE_NAME_LABEL = 'kubernetes.io/metadata.name';

/** Sets a namespace's `kubernetes.io/metadata.name` label to its name, as the API server does on every write. */
export function labelNamespace(ns: KubeObject): void {
  ns.metadata.labels = { ...ns.metadata.labels, [NAMESPACE_NAME_LABEL]: ns.metadata.name };
}

const DEFAULT_TOLERATIONS = [
  { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
  { key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
];

/** Pod defaults of the real API server (scheduler name, grace period, default tolerations, Pending). */
export function defaultPod(pod: KubeObject, nowMs: number): void {
  const spec = (pod.spec ?? {}) as Record<string, unknown>;
  pod.spec = spec;
  spec.schedulerName ??= 'default-scheduler';
  spec.restartPolicy ??= 'Always';
  spec.terminationGracePeriodSeconds ??= 30;
  spec.dnsPolicy ??= 'ClusterFirst';
  spec.priority ??= 0;
  const tolerations = (spec.tolerations ?? []) as { key?: string; effect?: string }[];
  for (const t of DEFAULT_TOLERATIONS) {
    if (!tolerations.some((x) => x.key === t.key && (x.effect === t.effect || x.effect === undefined))) {
      tolerations.push({ ...t });
    }
  }
  spec.tolerations = tolerations;
  const status = (pod.status ?? {}) as Record<string, unknown>;
  status.phase ??= 'Pending';
  status.qosClass ??= 'Burstable';
  if (spec.nodeName) {
    status.conditions ??= [{ type: 'PodScheduled', status: 'True', lastTransitionTime: timestamp(nowMs) }];
  }
  pod.status = status;
}
