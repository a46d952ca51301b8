/**
 * The subset of Kubernetes JSONPath that CRD printer columns use: `.a.b`, `.a[0].b`, `.a[*].b`
 * and filters `.a[?(@.type=="Ready")].status`. Returns every match (empty when none).
 */
export function evalJsonPath(root: unknown, path: string): unknown[] {
  let current: unknown[] = [root];
  // `\.` is a dot inside a key (`.metadata.labels.karpenter\.sh/nodepool`).
  const steps = path.replace(/^\{|\}$/g, '').match(/\.(?:\\\.|[^.[\\])+|\[[^\]]*\]/g) ?? [];
  for (const step of steps) {
    const next: unknown[] = [];
    for (const value of current) {
      if (value === null || typeof value !== 'object') continue;
      if (step.startsWith('.')) {
        const key = step.slice(1).replaceAll('\\.', '.');
        if (key in (value as object)) next.push((value as Record<string, unknown>)[key]);
        continue;
      }
      const inner = step.slice(1, -1);
      if (!Array.isArray(value)) continue;
      if (inner === '*') next.push(...value);
      else if (/^\d+$/.test(inner)) {
        if (Number(inner) < value.length) next.push(value[Number(inner)]);
      } else {
        const filter = /^\?\(@\.([\w.-]+)\s*==\s*["']([^"']*)["']\)$/.exec(inner);
        if (!filter) throw new Error(`unsupported JSONPath step ${step} in ${path}`);
        const [, field, wanted] = filter;
        next.push(...value.filter((item) => evalJsonPath(item, `.${field}`)[0] === wanted));
      }
    }
    current = next;
  }
  return current;
}
