/**
 * The pipeline benchmarks' wait for launches: polls the state table until every pod is on a
 * launched nodeclaim, or nothing new launched for `settleMs` (pods nominated to claims already in
 * flight are not in those claims' pod lists), showing progress; returns pod uid -> instance id.
 */
import type { SimulatedCloud } from '../../functions/simulator/cloud.js';
import { Progress } from '../../functions/simulator/progress.js';
import type { LatencyRecorder } from '../../functions/simulator/scenario/latency-recorder.js';

/** How {@link waitForLaunches} polls and when it gives up. */
export interface LaunchWait {
  readonly pollMs: number;
  readonly settleMs: number;
  readonly timeoutMs: number;
  /** The progress line, given how many pods are on launched nodeclaims. */
  readonly describe: (launched: number) => string;
}

export async function waitForLaunches(
  cloud: SimulatedCloud,
  recorder: LatencyRecorder,
  pods: number,
  wait: LaunchWait,
): Promise<Map<string, string>> {
  const deadline = Date.now() + wait.timeoutMs;
  const launchOf = new Map<string, string>();
  const progress = new Progress();
  let lastChange = Date.now();
  while (Date.now() < deadline) {
    const before = launchOf.size;
    await new Promise((resolve) => setTimeout(resolve, wait.pollMs));
    recorder.scanInstances();
    for (const claim of await cloud.stateStore.listNodeClaims()) {
      const id = claim.instance?.instanceId;
      if (id) for (const pod of claim.pods) launchOf.set(pod.uid, id);
    }
    if (launchOf.size !== before) lastChange = Date.now();
    if (launchOf.size >= pods || (launchOf.size > 0 && Date.now() - lastChange > wait.settleMs)) break;
    progress.update(wait.describe(launchOf.size));
  }
  progress.done();
  return launchOf;
}
