/**
 * The order of API groups and versions in discovery, as a real API server gives it: kube-aggregator
 * sorts the APIServices by group priority (highest first; every CRD group gets 1000, built-in groups
 * more), then by APIService name (`<version>.<group>`), and a group's versions by kube-like version
 * priority (GA before beta before alpha, higher numbers first). kubectl resolves a resource name
 * that several groups serve (`nodepools` in `joiner.sh` and `karpenter.sh`) to the first of them in
 * this order, so the simulated server must order them the same way.
 */

/** Group priorities of the built-in groups the simulated server serves (kube-apiserver's). */
const BUILTIN_GROUP_PRIORITY: Readonly<Record<string, number>> = {
  '': 18_000,
  apps: 17_800,
  'events.k8s.io': 17_750,
  'authentication.k8s.io': 17_700,
  'authorization.k8s.io': 17_600,
  autoscaling: 17_500,
  batch: 17_400,
  'certificates.k8s.io': 17_300,
  'networking.k8s.io': 17_200,
  policy: 17_100,
  'rbac.authorization.k8s.io': 17_000,
  'storage.k8s.io': 16_800,
  'apiextensions.k8s.io': 16_700,
  'admissionregistration.k8s.io': 16_700,
  'scheduling.k8s.io': 16_600,
  'coordination.k8s.io': 16_500,
  'node.k8s.io': 16_300,
  'discovery.k8s.io': 16_200,
  'flowcontrol.apiserver.k8s.io': 16_100,
};

/** The group priority of a CustomResourceDefinition's group. */
export const CRD_GROUP_PRIORITY = 1000;

const KUBE_VERSION = /^v(\d+)(?:(alpha|beta)(\d+))?$/;

/**
 * Kube-like version order: negative when `a` comes first. GA versions first (highest major), then
 * betas, then alphas (each highest first); versions of another form last, alphabetically.
 */
export function compareKubeVersions(a: string, b: string): number {
  const rank = (v: string): [number, number, number] | undefined => {
    const m = KUBE_VERSION.exec(v);
    if (!m) return undefined;
    const level = m[2] === undefined ? 2 : m[2] === 'beta' ? 1 : 0;
    return [level, Number(m[1]), Number(m[3] ?? 0)];
  };
  const ra = rank(a);
  const rb = rank(b);
  if (!ra || !rb) return ra ? -1 : rb ? 1 : a < b ? -1 : a > b ? 1 : 0;
  for (let i = 0; i < 3; i++) if (ra[i] !== rb[i]) return rb[i] - ra[i];
  return 0;
}

/** Groups (with their versions) in discovery order, each group's versions by priority. */
export function discoveryOrder<T extends { readonly group: string; readonly versions: readonly string[] }>(
  groups: readonly T[],
): T[] {
  const keyed = groups.map((g) => {
    const versions = [...g.versions].sort(compareKubeVersions);
    // The group's place is that of its first APIService in name order.
    const name = g.versions.map((v) => `${v}.${g.group}`).sort()[0] ?? g.group;
    const priority = BUILTIN_GROUP_PRIORITY[g.group] ?? CRD_GROUP_PRIORITY;
    return { group: { ...g, versions }, name, priority };
  });
  keyed.sort((a, b) => b.priority - a.priority || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return keyed.map((k) => k.group);
}
