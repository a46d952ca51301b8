/** Taints and tolerations, as the kube-scheduler evaluates them. */
import type { Taint, Toleration } from '../model/taint.js';

/** Whether one toleration tolerates one taint. */
export function toleratesTaint(toleration: Toleration, taint: Taint): boolean {
  if (toleration.effect && toleration.effect !== taint.effect) return false;
  if (toleration.key === undefined || toleration.key === '') {
    return toleration.operator === 'Exists';
  }
  if (toleration.key !== taint.key) return false;
  if (toleration.operator === 'Exists') return true;
  return (toleration.value ?? '') === (taint.value ?? '');
}

/**
 * The first taint the tolerations do not tolerate, or `undefined` when all are tolerated.
 * `PreferNoSchedule` taints are ignored unless `strictPreferNoSchedule` is set.
 */
export function untoleratedTaint(
  tolerations: readonly Toleration[] | undefined,
  taints: readonly Taint[],
  strictPreferNoSchedule = false,
): Taint | undefined {
  for (const taint of taints) {
    if (taint.effect === 'PreferNoSchedule' && !strictPreferNoSchedule) continue;
    if (!(tolerations ?? []).some((t) => toleratesTaint(t, taint))) return taint;
  }
  return undefined;
}

/** Whether the tolerations tolerate every NoSchedule / NoExecute taint. */
export function tolerates(tolerations: readonly Toleration[] | undefined, taints: readonly Taint[]): boolean {
  return untoleratedTaint(tolerations, taints) === undefined;
}

/** A taint as people write it: `key=value:Effect`. */
export function formatTaint(taint: Taint): string {
  return `${taint.key}${taint.value ? `=${taint.value}` : ''}:${taint.effect}`;
}
