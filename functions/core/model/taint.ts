/** A Kubernetes taint. */
export interface Taint {
  readonly key: string;
  readonly value?: string;
  readonly effect: 'NoSchedule' | 'PreferNoSchedule' | 'NoExecute';
}

/** A Kubernetes toleration. */
export interface Toleration {
  readonly key?: string;
  readonly operator?: 'Exists' | 'Equal';
  readonly value?: string;
  readonly effect?: 'NoSchedule' | 'PreferNoSchedule' | 'NoExecute';
  readonly tolerationSeconds?: number;
}

/**
 * Karpenter's registration taint: every node joiner launches registers with it (the user data
 * asks the kubelet for it), so no pod lands before joiner has synced the node's labels and taints
 * from its nodeclaim; joiner removes it when it registers the node. Like the node lifecycle
 * controller's taints, it is ephemeral: the planner does not count it against pods.
 */
export const UNREGISTERED_TAINT: Taint = { key: 'karpenter.sh/unregistered', effect: 'NoExecute' };

/** Whether `taint` is {@link UNREGISTERED_TAINT} (key and effect; a value does not matter). */
export function isUnregisteredTaint(taint: Taint): boolean {
  return taint.key === UNREGISTERED_TAINT.key && taint.effect === UNREGISTERED_TAINT.effect;
}
