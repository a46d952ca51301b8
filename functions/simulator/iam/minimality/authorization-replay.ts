/**
 * A scenario run's authorization requests, recorded once with the stack's full policies and
 * replayed against a modified template: pure evaluation (no simulated cloud), so every single
 * edit of the policies can be checked against every request a shipped scenario makes in
 * milliseconds. Replaying asks the same questions at the same virtual times with the same
 * sessions, so with the unmodified template every decision is the one the run got.
 */

import { stackAccount } from '../../stack/stack-account.js';
import type { ObservedDecision } from '../authorization/account-authorizer.js';
import type { AuthorizationRequest } from '../authorization/authorization-request.js';
import type { TemplateJson } from './policy-mutations.js';

/** One distinct request of a run. */
export interface RecordedRequest {
  readonly request: AuthorizationRequest;
  readonly sessionName?: string;
  /** The virtual time it was first asked. */
  readonly time: Date;
  /** The scenario step that was playing (`step 3: wait`), or `setup`. */
  readonly step: string;
  /** Whether the run's account allowed it. */
  readonly allowed: boolean;
}

/** A recorded run: where it ran and the distinct requests it made. */
export interface RecordedRun {
  readonly scenario: string;
  readonly clusterName: string;
  readonly region: string;
  readonly account: string;
  /** The template the run's account enforced. */
  readonly template: TemplateJson;
  readonly requests: readonly RecordedRequest[];
}

/** A replayed request the modified template denies. */
export interface ReplayDenial {
  readonly scenario: string;
  readonly step: string;
  readonly principal: string;
  readonly action: string;
  readonly resource: string;
  readonly hint?: string;
}

/**
 * Collects the distinct requests of a run from the account's decisions (RunScenarioOptions
 * `onAuthorization`); `step()` names the step playing when a request is first seen.
 */
export class RequestRecorder {
  private readonly seen = new Map<string, RecordedRequest>();

  constructor(private readonly step: () => string) {}

  /** Pass to `onAuthorization`. */
  readonly observe = (observed: ObservedDecision): void => {
    const key = requestKey(observed.request);
    if (this.seen.has(key)) return;
    this.seen.set(key, {
      request: observed.request,
      ...(observed.sessionName ? { sessionName: observed.sessionName } : {}),
      time: observed.time,
      step: this.step(),
      allowed: observed.decision.allowed,
    });
  };

  /** The distinct requests so far, in the order first asked. */
  get requests(): readonly RecordedRequest[] {
    return [...this.seen.values()];
  }
}

/** The requests of `run` that `template`'s IAM denies, in order (only the first with `firstOnly`). */
export function replayDenials(run: RecordedRun, template: TemplateJson, firstOnly = false): ReplayDenial[] {
  const account = stackAccount({
    template: template as Record<string, unknown>,
    source: `${run.scenario} (replayed)`,
    clusterName: run.clusterName,
    region: run.region,
    account: run.account,
    clock: () => 0,
  });
  const { authorizer } = account;
  for (const r of run.requests) {
    if (r.sessionName) authorizer.registerPrincipal(r.request.principal, r.sessionName);
  }
  const denials: ReplayDenial[] = [];
  for (const r of run.requests) {
    const evaluation = authorizer.explain(r.request, r.time);
    if (evaluation.decision.allowed) continue;
    denials.push({
      scenario: run.scenario,
      step: r.step,
      principal: r.request.principal,
      action: r.request.action,
      resource: r.request.resource,
      ...(evaluation.hint ? { hint: evaluation.hint } : {}),
    });
    if (firstOnly) break;
  }
  return denials;
}

/** `action on resource by role (scenario, step)`. */
export function describeReplayDenial(d: ReplayDenial): string {
  const role = d.principal.split('/').pop() ?? d.principal;
  return `${d.action} on ${d.resource} by ${role} (${d.scenario}, ${d.step})`;
}

function requestKey(r: AuthorizationRequest): string {
  const context = Object.keys(r.context)
    .sort()
    .map((k) => `${k}=${JSON.stringify(r.context[k])}`)
    .join('\u0001');
  return `${r.principal}\u0000${r.action}\u0000${r.resource}\u0000${context}`;
}
