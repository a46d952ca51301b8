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
