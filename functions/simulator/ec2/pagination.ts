/**
 * `MaxResults` / `NextToken` pagination. The token is an opaque offset bound to the action, so a
 * token from another call is rejected the way EC2 rejects it.
 */
import { Ec2Error } from './ec2-error.js';
import type { QueryParams } from './query.js';

export interface Page<T> {
  readonly items: T[];
  readonly nextToken?: string;
}

/** Returns one page of `items` as the request asks; `limits` are the action's allowed MaxResults. */
export function paginate<T>(
  items: readonly T[],
  params: QueryParams,
  action: string,
  limits: { min: number; max: number } = { min: 5, max: 1000 },
): Page<T> {
  const maxResults = params.int('MaxResults');
  if (maxResults !== undefined && (maxResults < limits.min || maxResults > limits.max)) {
    throw new Ec2Error(
      'InvalidParameterValue',
      `Value (${maxResults}) for parameter maxResults is invalid. Expecting a value between ${limits.min} and ${limits.max}.`,
    );
  }
  const start = decodeToken(params.str('NextToken'), action);
  if (maxResults === undefined) return { items: items.slice(start) };
  const end = start + maxResults;
  return {
    items: items.slice(start, end),
    nextToken: end < items.length ? encodeToken(end, action) : undefined,
  };
}

function encodeToken(offset: number, action: string): string {
  return Buffer.from(JSON.stringify({ a: action, o: offset })).toString('base64url');
}

function decodeToken(token: string | undefined, action: string): number {
  if (!token) return 0;
  try {
    const parsed = JSON.parse(Buffer.from(token, 'base64url').toString('utf8')) as {
      a?: unknown;
      o?: unknown;
    };
    if (parsed.a === action && typeof parsed.o === 'number' && parsed.o >= 0) return parsed.o;
  } catch {
    // fall through
  }
  throw new Ec2Error('InvalidNextToken', `The token '${token}' is invalid for ${action}`);
}
