/**
 * The IAM side of a scenario's outcome: the calls the account refused, which of them the
 * scenario expected (`expectDenials`), and the lines the text summary prints.
 */
import type { DeniedCall } from '../iam/authorization/account-identity.js';
import type { ExpectedDenial } from './scenario-schema.js';

/** `iam` of the summary: whether IAM was enforced, and what it refused. */
export interface IamSummary {
  /** False with `--no-iam` (a debugging mode: every call was allowed). */
  readonly enforced: boolean;
  readonly denied: readonly DeniedCall[];
  /**
   * The spot service-linked role: `present` from the start (scenario `account.spotServiceLinkedRole`),
   * `created` by a spot launch of the run (a fresh account), or `absent` at the end.
   */
  readonly spotServiceLinkedRole: 'present' | 'created' | 'absent';
}

/** Whether `denial` is one of `expected` (resource patterns take `*` and `?` wildcards). */
export function isExpected(denial: DeniedCall, expected: readonly ExpectedDenial[]): boolean {
  return expected.some(
    (e) =>
      wildcard(e.action).test(denial.action) &&
      (e.resource === undefined || wildcard(e.resource).test(denial.resource)),
  );
}

/** One failure line per denial the scenario did not expect. */
export function unexpectedDenials(iam: IamSummary, expected: readonly ExpectedDenial[]): string[] {
  return iam.denied
    .filter((d) => !isExpected(d, expected))
    .map((d) => `IAM denied ${describeDenial(d)} (not in expectDenials)`);
}

/** `action on resource as role (n×) — hint`. */
export function describeDenial(d: DeniedCall): string {
  const times = d.count > 1 ? ` ${d.count} times` : '';
  return `${d.action} on ${d.resource} to ${d.role}${times}${d.hint ? `; ${d.hint}` : ''}`;
}

/** The text summary's IAM lines. */
export function formatIam(iam: IamSummary | undefined): string[] {
  if (!iam) return [];
  const slr =
    iam.spotServiceLinkedRole === 'created'
      ? ['spot service-linked role: created by the first spot launch (a fresh account)']
      : [];
  if (!iam.enforced) return ['IAM: OFF (--no-iam, a debugging mode: every AWS call was allowed)', ...slr];
  if (iam.denied.length === 0) return ['IAM: enforced, 0 denials', ...slr];
  return [
    `IAM: enforced, ${iam.denied.reduce((n, d) => n + d.count, 0)} denied call(s):`,
    ...iam.denied.map((d) => `  - ${describeDenial(d)}`),
    ...slr,
  ];
}

function wildcard(pattern: string): RegExp {
  const body = pattern
    .replace(/[.+^${}()|[\]\\]/g, '\\$&')
    .replace(/\*/g, '.*')
    .replace(/\?/g, '.');
  return new RegExp(`^${body}$`, 'i');
}
