import { Sha256 } from '@aws-crypto/sha256-js';
import { HttpRequest } from '@smithy/protocol-http';
import { SignatureV4 } from '@smithy/signature-v4';
import type { AwsCredentialIdentity, Provider } from '@smithy/types';

/** Prefix of an EKS bearer token (aws-iam-authenticator format). */
export const EKS_TOKEN_PREFIX = 'k8s-aws-v1.';
/** The header binding a token to one cluster; it is signed, so a token works for that cluster only. */
export const CLUSTER_ID_HEADER = 'x-k8s-aws-id';
/** Lifetime of the presigned URL in seconds (EKS accepts tokens for 15 minutes from signing). */
export const PRESIGN_EXPIRY_SECONDS = 60;
/** A cached token is replaced once it is this old (before EKS's 15 minutes run out). */
export const TOKEN_REFRESH_MS = 14 * 60_000;

/** What a token is made of. */
export interface EksTokenOptions {
  readonly clusterName: string;
  readonly region: string;
  readonly credentials: AwsCredentialIdentity | Provider<AwsCredentialIdentity>;
  /** Epoch ms of signing (default now). */
  readonly now?: number;
}

/**
 * Makes an EKS bearer token: a presigned STS GetCallerIdentity URL with the cluster name in the
 * signed `x-k8s-aws-id` header, base64url-encoded without padding and prefixed `k8s-aws-v1.`.
 * EKS calls the URL to learn which IAM principal is asking.
 */
export async function eksToken(options: EksTokenOptions): Promise<string> {
  const hostname = `sts.${options.region}.amazonaws.com`;
  const signer = new SignatureV4({
    service: 'sts',
    region: options.region,
    credentials: options.credentials,
    sha256: Sha256,
  });
  const request = new HttpRequest({
    method: 'GET',
    protocol: 'https:',
    hostname,
    path: '/',
    query: { Action: 'GetCallerIdentity', Version: '2011-06-15' },
    headers: { host: hostname, [CLUSTER_ID_HEADER]: options.clusterName },
  });
  const signed = await signer.presign(request, {
    expiresIn: PRESIGN_EXPIRY_SECONDS,
    signingDate: new Date(options.now ?? Date.now()),
    unhoistableHeaders: new Set([CLUSTER_ID_HEADER]),
  });
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(signed.query ?? {})) {
    for (const v of Array.isArray(value) ? value : [value]) if (v !== null) query.append(key, v);
  }
  const url = `https://${hostname}/?${query.toString()}`;
  return EKS_TOKEN_PREFIX + Buffer.from(url, 'utf8').toString('base64url');
}

/** Returns a token provider that caches a token and makes a new one after {@link TOKEN_REFRESH_MS}. */
export function cachedEksTokens(
  options: Omit<EksTokenOptions, 'now'>,
  now: () => number = Date.now,
): () => Promise<string> {
  let cached: { token: string; madeAt: number } | undefined;
  return async () => {
    const at = now();
    if (!cached || at - cached.madeAt >= TOKEN_REFRESH_MS) {
      cached = { token: await eksToken({ ...options, now: at }), madeAt: at };
    }
    return cached.token;
  };
}
