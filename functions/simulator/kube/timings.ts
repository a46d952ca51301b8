/**
 * Lifecycle timings of the simulated cluster, kwok-style: each stage is a delay plus a uniform
 * jitter, drawn from the seeded random source and run on the virtual clock.
 */
import type { SeededRandom } from '../clock.js';

/** One stage: it happens `delayMs` + uniform[0, `jitterMs`] after the previous one. */
export interface Stage {
  readonly delayMs: number;
  readonly jitterMs: number;
}

/** Every timed step of the simulated control plane and kubelets. */
export interface KubeTimings {
  /** Instance running -> Node object registered. */
  readonly nodeRegistered: Stage;
  /** Node registered -> Ready=True. */
  readonly nodeReady: Stage;
  /** Node Ready -> Multus daemonset pod Ready. */
  readonly multusReady: Stage;
  /** Pod bound to a Ready node (or node became Ready) -> Running and Ready. */
  readonly podRunning: Stage;
  /** Pod deletion requested -> containers stopped and the pod removed (capped by its grace period). */
  readonly podTerminated: Stage;
  /** Instance shutting down -> Node Ready=Unknown (NotReady). */
  readonly nodeNotReady: Stage;
  /** Node NotReady after termination -> Node and its pods removed. */
  readonly nodeRemoved: Stage;
  /** Period of the simulated kube-scheduler's pass. */
  readonly schedulerIntervalMs: number;
  /** Period of watch bookmarks (virtual time). */
  readonly bookmarkIntervalMs: number;
}

/** Realistic defaults (EKS AL2023 nodes: the kubelet registers ~30-40 s after the instance runs). */
export const DEFAULT_KUBE_TIMINGS: KubeTimings = {
  nodeRegistered: { delayMs: 30_000, jitterMs: 10_000 },
  nodeReady: { delayMs: 5_000, jitterMs: 5_000 },
  multusReady: { delayMs: 3_000, jitterMs: 4_000 },
  podRunning: { delayMs: 2_000, jitterMs: 3_000 },
  podTerminated: { delayMs: 1_000, jitterMs: 2_000 },
  nodeNotReady: { delayMs: 5_000, jitterMs: 5_000 },
  nodeRemoved: { delayMs: 30_000, jitterMs: 10_000 },
  schedulerIntervalMs: 1_000,
  bookmarkIntervalMs: 60_000,
};

/** Draws a stage's duration in milliseconds. */
export function draw(stage: Stage, random: SeededRandom): number {
  return Math.round(random.delay(stage.delayMs, stage.jitterMs));
}

/** Defaults overridden by `overrides`. */
export function resolveTimings(overrides: Partial<KubeTimings> = {}): KubeTimings {
  return { ...DEFAULT_KUBE_TIMINGS, ...overrides };
}
