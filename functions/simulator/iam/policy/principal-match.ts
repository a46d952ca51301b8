/**
 * Matching the Principal / NotPrincipal element of resource and trust policies against the
 * principal making a request: a role ARN (or a session of that role), a service principal
 * (`events.amazonaws.com`), or an account (its id or `arn:aws:iam::<account>:root`).
 */
import type { PrincipalMap } from './policy-document.js';

/**
 * How a statement's principals name the caller: `specific` (the caller itself, `*`, or its
 * service name), `account` (the caller's account: access is then delegated to the account's
 * identity policies), or `none`.
 */
export type PrincipalMatch = 'specific' | 'account' | 'none';

const ROLE = /^arn:([^:]+):iam::(\d{12}):role\/(?:.*\/)?([^/]+)$/;
const SESSION = /^arn:([^:]+):sts::(\d{12}):assumed-role\/([^/]+)\/[^/]+$/;
const ROOT = /^arn:[^:]+:iam::(\d{12}):root$/;

/** The account a principal ARN belongs to; undefined for service principals. */
export function accountOfPrincipal(principal: string): string | undefined {
  return /^arn:[^:]+:(?:iam|sts)::(\d{12}):/.exec(principal)?.[1];
}

function matchesAwsEntry(entry: string, principal: string): PrincipalMatch {
  if (entry === '*') return 'specific';
  if (entry === principal) return 'specific';
  const account = accountOfPrincipal(principal);
  if (account !== undefined && (entry === account || ROOT.exec(entry)?.[1] === account)) return 'account';
  // A role ARN names the sessions of that role too.
  const role = ROLE.exec(entry);
  const session = SESSION.exec(principal);
  if (role && session && role[1] === session[1] && role[2] === session[2] && role[3] === session[3]) {
    return 'specific';
  }
  return 'none';
}

/** How the principals of a statement name `principal`. */
export function matchPrincipal(principals: PrincipalMap | '*', principal: string): PrincipalMatch {
  if (principals === '*') return 'specific';
  let best: PrincipalMatch = 'none';
  for (const [kind, entries] of Object.entries(principals)) {
    for (const entry of entries) {
      let match: PrincipalMatch = 'none';
      if (kind === 'AWS') match = matchesAwsEntry(entry, principal);
      else if (kind === 'Service')
        match = entry.toLowerCase() === principal.toLowerCase() ? 'specific' : 'none';
      else match = entry === principal ? 'specific' : 'none';
      if (match === 'specific') return match;
      if (match === 'account') best = match;
    }
  }
  return best;
}
