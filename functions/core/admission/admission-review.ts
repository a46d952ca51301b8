import * as z from 'zod';

/** The parts of an object joiner reads from an AdmissionReview (the rest passes through). */
const reviewedObject = z.looseObject({
  metadata: z.looseObject({
    name: z.string().optional(),
    namespace: z.string().optional(),
    uid: z.string().optional(),
    labels: z.record(z.string(), z.string()).optional(),
  }),
  spec: z.looseObject({}).optional(),
  status: z.looseObject({}).optional(),
});

/** An object as it appears in an AdmissionReview request. */
export type ReviewedObject = z.infer<typeof reviewedObject>;

/** `request` of an AdmissionReview v1 (only the fields joiner reads are checked). */
export const admissionRequest = z.looseObject({
  uid: z.string().min(1),
  kind: z.object({ group: z.string(), version: z.string(), kind: z.string() }),
  resource: z.object({ group: z.string(), version: z.string(), resource: z.string() }),
  subResource: z.string().optional(),
  name: z.string().optional(),
  namespace: z.string().optional(),
  operation: z.enum(['CREATE', 'UPDATE', 'DELETE', 'CONNECT']),
  object: reviewedObject.nullish(),
  oldObject: reviewedObject.nullish(),
});

/** The request of an AdmissionReview v1. */
export type AdmissionRequest = z.infer<typeof admissionRequest>;

/** An AdmissionReview v1 as the API server sends it to a webhook. */
export const admissionReview = z.looseObject({
  apiVersion: z.literal('admission.k8s.io/v1'),
  kind: z.literal('AdmissionReview'),
  request: admissionRequest,
});

export type AdmissionReview = z.infer<typeof admissionReview>;

/** The answer joiner's webhook always gives: allowed. */
export interface AdmissionResponse {
  readonly apiVersion: 'admission.k8s.io/v1';
  readonly kind: 'AdmissionReview';
  readonly response: { readonly uid: string; readonly allowed: true };
}

/** The `allowed: true` answer to the review with `uid`. */
export function allowedResponse(uid: string): AdmissionResponse {
  return { apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview', response: { uid, allowed: true } };
}

/**
 * Parses an AdmissionReview v1; throws an error naming the first fields that are wrong.
 */
export function parseAdmissionReview(json: unknown): AdmissionReview {
  const parsed = admissionReview.safeParse(json);
  if (parsed.success) return parsed.data;
  const problems = parsed.error.issues
    .slice(0, 3)
    .map((issue) => `${issue.path.map(String).join('.') || '(root)'}: ${issue.message}`);
  throw new Error(`not an AdmissionReview v1: ${problems.join('; ')}`);
}
