/**
 * The chaos suite at CI size (a small seed sweep at 6 replicas; `npm run chaos` runs more and
 * prints the table), with IAM enforced and EC2 eventually consistent: joiner's
 * real handlers in the simulated cloud with every queue delivering each batch three times, two
 * invocations at once, a crash at each launch and drain step, 20% EC2 throttling, ICE on half of
 * the offerings, 10% Kubernetes API 5xx, DynamoDB throttling, lost webhook calls and a spot storm
 * over workloads behind PDBs.
 */
import { describe, expect, it } from 'vitest';
import { formatTable } from './harness/format-table.js';
import { checkReplicas, runChaos } from './harness/run-chaos.js';

/** The seeds CI runs at {@link CI_REPLICAS} replicas (each a few minutes of wall time). */
const CI_SEEDS = [3];
const CI_REPLICAS = 6;

describe('chaos suite', () => {
  it.each(CI_SEEDS)(
    'seed %i: launches nothing twice, leaves no orphan, keeps the limit and every PDB, loses no pod, places every pod within 3 clean cycles, and IAM denies nothing',
    async (seed) => {
      const report = await runChaos({ seed, replicas: CI_REPLICAS });
      console.log(formatTable([report]));
      // The chaos happened: every launch crash point fired (drain points fire when a drain meets
      // them; the table counts them), and every kind of fault was met.
      for (const point of ['after the claim write', 'after CreateFleet', 'before the state update'])
        expect(report.crashPointsMissed).not.toContain(point);
      expect(report.faults.kube5xx).toBeGreaterThan(0);
      expect(report.faults.dynamoThrottled).toBeGreaterThan(0);
      expect(report.faults.conditionalFailures).toBeGreaterThan(0);
      expect(report.faults.iceOfferings).toBeGreaterThan(0);
      expect(report.faults.spotInterrupted).toBeGreaterThan(0);
      expect(report.faults.deliveries).toBeGreaterThan(report.faults.failedDeliveries);
      // Lost state: claim records of running nodes were deleted; the sweep adopted them, no pod died.
      expect(report.faults.claimRecordsDeleted).toBeGreaterThan(0);
      expect(report.attribution.podsLost.joiner).toBe(0);
      expect(report.attribution.pdbViolations.joiner).toBe(0);
      // Every invariant holds under all of it; PDB violations and lost pods are required to be 0
      // where joiner decided them (the table lists those a spot reclaim decided, with their pods).
      // Late pods likewise: none may have waited through more than 3 clean provisioning cycles
      // (the table lists those that waited on cycles an injected fault broke, with the faults).
      const { pdbViolations, podsLost, podsLate, ...others } = report.invariants;
      expect(others).toEqual({
        doubleLaunches: 0,
        orphansAfterGc: 0,
        limitViolations: 0,
        iamDenials: 0,
      });
      expect(pdbViolations).toBe(report.attribution.pdbViolations.reclaim);
      expect(podsLost).toBe(report.attribution.podsLost.reclaim);
      expect(report.attribution.podsLate.joiner).toBe(0);
      expect(podsLate).toBe(report.attribution.podsLate['injected fault']);
      // Every workload pod runs again at the end.
      expect(report.pods).toBe(3 * CI_REPLICAS);
      // Seed 3 took 43 s of CPU, 4.6 minutes of wall time on a machine at load 22.
    },
    900_000,
  );

  it('refuses a replica count outside what the harness supports, naming the bounds', () => {
    for (const bad of [0, 11, 2.5, Number.NaN])
      expect(() => checkReplicas(bad)).toThrow(/--replicas must be an integer from 1 to 10/);
    expect(() => checkReplicas(10)).not.toThrow();
  });
});
