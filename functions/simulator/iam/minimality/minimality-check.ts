/**
 * The IAM minimality check over recorded runs: for every mutation of the stack's policies (see
 * policy-mutations.ts), the requests of the shipped scenarios it makes IAM deny, found by
 * replaying each run's requests against the mutated template. A mutation no run notices is a
 * statement (or condition) nothing exercises: either unneeded or untested.
 */
import { stackAccount } from '../../stack/stack-account.js';
import { type RecordedRun, type ReplayDenial, replayDenials } from './authorization-replay.js';
import { type PolicyMutation, policyMutations } from './policy-mutations.js';

/** What one mutation did to the recorded runs. */
export interface MutationOutcome {
  readonly mutation: PolicyMutation;
  /** The requests it makes IAM deny, run after run, in each run's order (the first only in `first` mode). */
  readonly denials: readonly ReplayDenial[];
}

/**
 * Replays every run against every mutation of the runs' templates (the same stack synthesized
 * per scenario: mutations are matched by id; the first run's template lists them). Only the
 * requests of the mutated policy's roles that the run allowed are replayed: nothing else can change.
 */
export function checkMinimality(
  runs: readonly RecordedRun[],
  /** `first`: stop at the first denied request of each edit (enough to prove it noticed). */
  mode: 'all' | 'first' = 'all',
): MutationOutcome[] {
  if (runs.length === 0) throw new Error('IAM minimality: no recorded runs');
  const perRun = runs.map((run) => ({
    run,
    byId: new Map(policyMutations(run.template, run.scenario).map((m) => [m.id, m])),
    roleArns: roleArnsOf(run),
  }));
  return [...perRun[0].byId.values()].map((mutation) => ({
    mutation,
    denials: perRun.reduce<ReplayDenial[]>((found, { run, byId, roleArns }) => {
      const own = byId.get(mutation.id);
      if (!own || (mode === 'first' && found.length > 0)) return found;
      const principals = new Set(own.roles.map((id) => roleArns.get(id)));
      const relevant: RecordedRun = {
        ...run,
        requests: run.requests.filter((r) => r.allowed && principals.has(r.request.principal)),
      };
      if (relevant.requests.length === 0) return found;
      found.push(...replayDenials(relevant, own.apply(run.template), mode === 'first'));
      return found;
    }, []),
  }));
}

/** Role logical id → the role ARN the run's account gave it. */
function roleArnsOf(run: RecordedRun): Map<string, string> {
  const { iam } = stackAccount({
    template: run.template as Record<string, unknown>,
    source: run.scenario,
    clusterName: run.clusterName,
    region: run.region,
    account: run.account,
    clock: () => 0,
  });
  return new Map(iam.roles.map((r) => [r.logicalId, r.arn]));
}
