import type { Context } from 'aws-lambda';
import { admissionEvents } from '../core/admission/admission-events.js';
import {
  type AdmissionReview,
  allowedResponse,
  parseAdmissionReview,
} from '../core/admission/admission-review.js';
import type { Dependencies } from './runtime/dependencies.js';
import {
  encodedBodyBytes,
  errorResponse,
  type HttpEvent,
  type HttpRequest,
  type HttpResponse,
  httpRequestOf,
  jsonResponse,
  lastPathSegment,
  MalformedPathError,
} from './runtime/http-request.js';
import { lambdaHandler, recordMetrics } from './runtime/lambda.js';
import { webhookDependenciesFromEnv } from './runtime/webhook-dependencies.js';
import { type SecretSource, secretAccepted, webhookSecretSource } from './runtime/webhook-secret.js';

/** Largest AdmissionReview body the webhook reads (bytes). */
export const MAX_WEBHOOK_BODY_BYTES = 1024 * 1024;

/** What the webhook needs. `secret` defaults to the one the settings name. */
export type WebhookDeps = Pick<Dependencies, 'settings' | 'log' | 'events' | 'clock'> & {
  readonly secret?: SecretSource;
};

/**
 * Handles one AdmissionReview. A call without the path secret, or with a wrong one, gets 401 and
 * is never read further. Every authenticated call gets a valid `allowed: true` AdmissionReview,
 * whatever its body: a body that is too large, not JSON or not an AdmissionReview v1 is logged
 * with what was wrong and forwards nothing (its uid is echoed when one can be read). A valid
 * review publishes the events it stands for; a failed publish is logged, not returned: the API
 * server must never wait on joiner, and the sweep finds what a lost event would have reported.
 */
export async function handleWebhook(deps: WebhookDeps, event: HttpEvent): Promise<HttpResponse> {
  const request = httpRequestOf(event);
  let presented: string | undefined;
  try {
    presented = lastPathSegment(request.path);
  } catch (error) {
    if (!(error instanceof MalformedPathError)) throw error;
    deps.log.warn('rejected webhook call with a malformed path', { path: redact(request.path) });
    return errorResponse(400, error.message);
  }
  if (!presented) return errorResponse(401, 'the webhook secret is missing from the URL path');
  if (!(await secretAccepted(presented, deps.secret ?? webhookSecretSource(deps.settings)))) {
    deps.log.warn('rejected webhook call with a wrong secret', { path: redact(request.path) });
    return errorResponse(401, 'the webhook secret is wrong');
  }
  const parsed = readReview(request, event);
  if ('problem' in parsed) {
    deps.log.warn('allowed a malformed webhook call without forwarding it', {
      problem: parsed.problem,
      uid: parsed.uid,
    });
    return jsonResponse(200, allowedResponse(parsed.uid ?? ''));
  }
  const review = parsed.review;
  const events = admissionEvents(review.request, deps.clock.now());
  if (events.length > 0) {
    try {
      await deps.events.publish(events);
      deps.log.debug('forwarded admission events', {
        uid: review.request.uid,
        events: events.map((e) => e.detailType),
      });
    } catch (error) {
      deps.log.error('failed to publish admission events', {
        uid: review.request.uid,
        events: events.map((e) => e.detailType),
        error: (error as Error).message,
      });
    }
  }
  return jsonResponse(200, allowedResponse(review.request.uid));
}

/** The review of a request, or what is wrong with it (and its uid when one can be read). */
function readReview(
  request: HttpRequest,
  event: HttpEvent,
): { review: AdmissionReview } | { problem: string; uid?: string } {
  if (request.method !== 'POST') return { problem: `method ${request.method}; POST an AdmissionReview` };
  if (encodedBodyBytes(event) > MAX_WEBHOOK_BODY_BYTES || request.body.length > MAX_WEBHOOK_BODY_BYTES)
    return { problem: `the body is larger than ${MAX_WEBHOOK_BODY_BYTES} bytes` };
  let json: unknown;
  try {
    json = JSON.parse(request.body.toString('utf8'));
  } catch (error) {
    return { problem: `the body is not JSON: ${(error as Error).message}` };
  }
  try {
    return { review: parseAdmissionReview(json) };
  } catch (error) {
    return { problem: (error as Error).message, uid: uidOf(json) };
  }
}

/** `request.uid` of a JSON body, when it is a reasonable string. */
function uidOf(json: unknown): string | undefined {
  const uid = (json as { request?: { uid?: unknown } } | null)?.request?.uid;
  return typeof uid === 'string' && uid.length > 0 && uid.length <= 128 ? uid : undefined;
}

function redact(path: string): string {
  return path.replace(/[^/]+\/?$/, '***');
}

/** The webhook Lambda handler (function URL, HTTP API or REST API events). */
export function createWebhookHandler(getDeps: () => WebhookDeps) {
  return lambdaHandler<HttpEvent, HttpResponse>(async (event: HttpEvent, _context: Context) => {
    const response = await handleWebhook(getDeps(), event);
    recordMetrics({ [response.statusCode === 200 ? 'AdmissionReviews' : 'RejectedRequests']: 1 });
    return response;
  });
}

export const handler = createWebhookHandler(() => webhookDependenciesFromEnv(process.env));
