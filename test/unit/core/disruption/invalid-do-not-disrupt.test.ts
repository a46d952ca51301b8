import { describe, expect, it } from 'vitest';
import { INVALID_DO_NOT_DISRUPT_REASON } from '../../../../functions/core/disruption/invalid-do-not-disrupt.js';
import { blockingDoNotDisrupt } from '../../../../functions/core/disruption/pod-policy.js';
import { runSweep } from '../../../../functions/core/sweep/run-sweep.js';
import { podOn } from '../lifecycle/fakes.js';
import { harness, runningClaim } from '../lifecycle/harness.js';

const KEY = 'karpenter.sh/do-not-disrupt';

function annotated(h: ReturnType<typeof harness>, name: string, value: string, uid = `uid-${name}`) {
  const pod = podOn('ip-a', name, { annotations: { [KEY]: value }, uid });
  h.cluster.pods.push(pod);
  return pod;
}

const warnings = (h: ReturnType<typeof harness>) =>
  h.cluster.events.filter((e) => e.reason === INVALID_DO_NOT_DISRUPT_REASON);

describe('an invalid karpenter.sh/do-not-disrupt value', () => {
  it('is ignored as Karpenter ignores it, with one Warning event on the pod naming the value', async () => {
    const h = harness({ consolidateAfterMs: null });
    runningClaim(h, 'default-a', 'ip-a');
    const bad = annotated(h, 'app', 'soon');
    annotated(h, 'timed', '1h');
    annotated(h, 'pinned', 'true');
    expect(blockingDoNotDisrupt([bad], h.clock.now())).toBeUndefined();
    await runSweep(h.sweep);
    expect(warnings(h)).toEqual([
      {
        involvedObject: { kind: 'Pod', name: 'app', namespace: 'default', uid: 'uid-app', apiVersion: 'v1' },
        type: 'Warning',
        reason: 'InvalidDoNotDisruptAnnotation',
        message:
          'Invalid karpenter.sh/do-not-disrupt annotation: failed to parse "soon" as a duration, ignoring annotation',
      },
    ]);
    expect(
      h.log.lines.some(
        (l) => l.level === 'warn' && l.message.includes('ignoring invalid karpenter.sh/do-not-disrupt'),
      ),
    ).toBe(true);
  });

  it('is reported once, not at every round, until the value or the pod changes', async () => {
    const h = harness({ consolidateAfterMs: null });
    runningClaim(h, 'default-a', 'ip-a');
    const bad = annotated(h, 'app', '-5m');
    await runSweep(h.sweep);
    h.clock.advance(60_000);
    await runSweep(h.sweep);
    h.clock.advance(60_000);
    await runSweep(h.sweep);
    expect(warnings(h).map((e) => e.message)).toEqual([
      'Invalid karpenter.sh/do-not-disrupt annotation: duration "-5m" must be positive, ignoring annotation',
    ]);
    bad.metadata.annotations = { [KEY]: 'later' };
    h.clock.advance(60_000);
    await runSweep(h.sweep);
    annotated(h, 'app-2', 'later');
    h.clock.advance(60_000);
    await runSweep(h.sweep);
    expect(warnings(h).map((e) => `${e.involvedObject.name}: ${e.message}`)).toEqual([
      'app: Invalid karpenter.sh/do-not-disrupt annotation: duration "-5m" must be positive, ignoring annotation',
      'app: Invalid karpenter.sh/do-not-disrupt annotation: failed to parse "later" as a duration, ignoring annotation',
      'app-2: Invalid karpenter.sh/do-not-disrupt annotation: failed to parse "later" as a duration, ignoring annotation',
    ]);
  });

  it('on a finished pod, or a valid value, reports nothing', async () => {
    const h = harness({ consolidateAfterMs: null });
    runningClaim(h, 'default-a', 'ip-a');
    const done = annotated(h, 'job', 'soon');
    done.status = { phase: 'Succeeded' };
    annotated(h, 'timed', '90s');
    await runSweep(h.sweep);
    expect(warnings(h)).toEqual([]);
  });
});
