import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  describeReplayDenial,
  type RecordedRun,
  replayDenials,
} from '../../functions/simulator/iam/minimality/authorization-replay.js';
import {
  checkMinimality,
  type MutationOutcome,
} from '../../functions/simulator/iam/minimality/minimality-check.js';
import {
  type RecordedScenario,
  recordScenarioRun,
} from '../../functions/simulator/iam/minimality/record-run.js';
import { unexercisedReason } from '../../functions/simulator/iam/minimality/unexercised.js';
import { runJoiner } from '../helpers/run-joiner.js';
import { scenarioPath } from './scenario-runner.js';

/**
 * The shipped scenarios whose requests, together, notice every edit below: a spot pool in a fresh
 * account (the SLR), a node repair (events to the bus, terminations), a region where joiner
 * makes a NodeClass's instance profile, and launches into a capacity reservation.
 * `npm run iam:minimality` checks all scenarios end to end.
 */
const SCENARIOS = [
  'region-ap-southeast-2',
  'seed-002-inflate-spot',
  'node-repair',
  'nodeclass-tags',
  'capacity-reservation-odcr',
];

const recorded: RecordedScenario[] = [];
let outcomes: MutationOutcome[];
let replayMs = 0;

beforeAll(async () => {
  // Timers jump (as in the other scenario tests): the speed changes the wall time a run waits, not
  // its requests (test/e2e/speed-invariance.test.ts); at the recorder's default of 200 the five
  // runs sat idle for most of their wall time.
  for (const name of SCENARIOS)
    recorded.push(await recordScenarioRun(scenarioPath(name), { speed: Number.POSITIVE_INFINITY }));
  const started = performance.now();
  outcomes = checkMinimality(
    recorded.map((r) => r.run),
    'first',
  );
  replayMs = performance.now() - started;
  console.log(
    `IAM minimality: ${outcomes.length} edits replayed against ${recorded.reduce((n, r) => n + r.run.requests.length, 0)} recorded requests in ${replayMs.toFixed(0)} ms`,
  );
}, 900_000);

describe('the stack’s IAM is minimal and sufficient for the shipped scenarios', () => {
  it('the recorded runs pass with IAM enforced and 0 denials; the spot pool created the SLR of a fresh account', () => {
    for (const { run, result } of recorded) {
      expect(result.failures, run.scenario).toEqual([]);
      expect(result.summary.iam).toMatchObject({ enforced: true, denied: [] });
      expect(run.requests.length, run.scenario).toBeGreaterThan(20);
    }
    const spot = recorded.find((r) => r.run.scenario === 'seed-002-inflate-spot')!;
    expect(spot.result.summary.iam.spotServiceLinkedRole).toBe('created');
    // Spot nodes launched (the scenario's own expect steps check a spot node ran the pods).
    expect(spot.result.summary.latency.unschedulableToLaunchMs.samples).toBeGreaterThan(0);
  });

  it('replaying a run against its own template denies nothing (the replay asks what the run asked)', () => {
    for (const { run } of recorded) expect(replayDenials(run, run.template)).toEqual([]);
  });

  it('every statement removed, and every condition made to require another value, denies a request of some scenario', () => {
    const unnoticed = outcomes.filter((o) => o.denials.length === 0 && !unexercisedReason(o.mutation));
    expect(unnoticed.map((o) => o.mutation.id)).toEqual([]);
    const controller = outcomes.filter((o) => o.mutation.id.startsWith('ControllerPermissionsPolicy/'));
    expect(controller.length).toBeGreaterThan(20);
    // The report names, for each edit, the scenario, step, action and resource first denied.
    const report = outcomes
      .filter((o) => o.denials.length > 0)
      .map((o) => `${o.mutation.id}: ${describeReplayDenial(o.denials[0])}`);
    expect(
      report.find((l) => l.startsWith('ControllerPermissionsPolicy/CreateSpotServiceLinkedRole:')),
    ).toMatch(
      /iam:CreateServiceLinkedRole on arn:aws:iam::\d{12}:role\/aws-service-role\/spot\.amazonaws\.com\/AWSServiceRoleForEC2Spot by .*\([\w-]+, step \d+: \w+\)$/,
    );
    expect(report.find((l) => l.startsWith('CatalogPolicy/ReadWriteCatalogSnapshot ForAllValues'))).toMatch(
      /dynamodb:(BatchGetItem|PutItem) on arn:aws:dynamodb:/,
    );
  });

  describe('end to end: joiner simulate --stack-template with an edited template fails with the IAM denial printed', () => {
    const dir = mkdtempSync(join(tmpdir(), 'joiner-iam-minimality-'));
    for (const [id, action] of [
      ['ControllerPermissionsPolicy/TagOnLaunch', 'ec2:CreateTags'],
      ['ControllerPermissionsPolicy/CreateNodeClassInstanceProfiles', 'iam:CreateInstanceProfile'],
    ] as const) {
      it(`${id} removed: exit 1 and "IAM denied ${action}"`, async () => {
        const outcome = outcomes.find((o) => o.mutation.id === id)!;
        const run: RecordedRun = recorded.find((r) => r.run.scenario === 'region-ap-southeast-2')!.run;
        const file = join(dir, `${id.replace(/\W+/g, '_')}.json`);
        writeFileSync(file, JSON.stringify(outcome.mutation.apply(run.template)));
        const result = await runJoiner(
          'simulate',
          scenarioPath(run.scenario),
          '--stack-template',
          file,
          '--speed',
          '200',
        );
        expect(result.code, result.out.slice(-3000)).toBe(1);
        expect(result.out).toContain(`IAM denied ${action}`);
      }, 300_000);
    }
  });
});
