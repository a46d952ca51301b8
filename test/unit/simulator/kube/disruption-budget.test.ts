import { describe, expect, it } from 'vitest';
import type { PodDisruptionBudget } from '../../../../functions/core/model/kube-objects.js';
import { budgetStatus } from '../../../../functions/simulator/kube/api/disruption-budget.js';
import type { KubeObject } from '../../../../functions/simulator/kube/api/object-store.js';

const pdb = (spec: PodDisruptionBudget['spec']): PodDisruptionBudget => ({
  metadata: { name: 'web', namespace: 'default' },
  spec: { selector: { matchLabels: { app: 'web' } }, ...spec },
});

function pod(name: string, running: boolean, terminating = false): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name,
      namespace: 'default',
      labels: { app: 'web' },
      ownerReferences: [
        { apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'web-1', uid: 'rs-1', controller: true },
      ],
      ...(terminating ? { deletionTimestamp: '2026-01-01T00:00:00Z' } : {}),
    },
    status: running
      ? { phase: 'Running', conditions: [{ type: 'Ready', status: 'True' }] }
      : { phase: 'Pending', conditions: [] },
  };
}

describe('PodDisruptionBudget arithmetic of the simulated cluster', () => {
  // A pod being replaced: the one leaving and its replacement are one replica of three.
  const pods = [pod('a', true), pod('b', true, true), pod('c', false), pod('d', false)];

  it('maxUnavailable counts the replicas the controller wants, not the pods present', () => {
    const status = budgetStatus(pdb({ maxUnavailable: 2 }), pods, (uid) => (uid === 'rs-1' ? 3 : undefined));
    expect(status).toEqual({ expectedPods: 3, currentHealthy: 1, desiredHealthy: 1, disruptionsAllowed: 0 });
  });

  it('a percentage minAvailable counts replicas too; an integer minAvailable counts the pods', () => {
    const scale = () => 3;
    expect(budgetStatus(pdb({ minAvailable: '50%' }), pods, scale).desiredHealthy).toBe(2);
    expect(budgetStatus(pdb({ minAvailable: 2 }), pods, scale).expectedPods).toBe(4);
  });

  it('without the controller the selected pods are the expected ones', () => {
    expect(budgetStatus(pdb({ maxUnavailable: 2 }), pods, () => undefined).expectedPods).toBe(4);
  });
});
