import { describe, expect, it } from 'vitest';
import { StepCpuRecorder } from '../../../bench/lib/step-cpu.js';

describe('StepCpuRecorder', () => {
  it("charges each scenario step the CPU from its log line to the next step's, the last up to the end", () => {
    let cpu = 1;
    const recorder = new StepCpuRecorder(() => cpu);
    recorder.onLog('2026-01-01T00:00:00.000Z INFO simulate scenario s: cluster c, seed 1');
    recorder.onLog('2026-01-01T00:00:00.000Z INFO simulate step 0: apply Deployment/web');
    cpu = 3.5;
    recorder.onLog('2026-01-01T00:00:01.000Z INFO provisioner launched nodeclaim {"step 9: no":1}');
    recorder.onLog('2026-01-01T00:00:02.000Z INFO simulate step 1: wait 20s');
    cpu = 10;
    expect(recorder.steps()).toEqual([
      { step: 'step 0: apply Deployment/web', cpuSeconds: 2.5 },
      { step: 'step 1: wait 20s', cpuSeconds: 6.5 },
    ]);
  });

  it('has no steps when the log named none', () => {
    const recorder = new StepCpuRecorder(() => 4);
    recorder.onLog('2026-01-01T00:00:00.000Z INFO provisioner provisioning run finished');
    expect(recorder.steps()).toEqual([]);
  });
});
