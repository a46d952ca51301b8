import type { Context } from 'aws-lambda';
import { admissionEvents } from '../core/admission/admission-events.js';
import { allowedResponse, parseAdmissionReview } from '../core/admission/admission-review.js';
import type { Dependencies } from './runtime/dependencies.js';
import {
  encodedBodyBytes,
  errorResponse,
  type HttpEvent,
  type HttpResponse,
  httpRequestOf,
  jsonResponse,
  lastPathSegment,
  MalformedPathError,
} from './runtime/http-request.js';
import { lambdaHandler, recordMetrics } from './runtime/lambda.js';
import { webhookDependenciesFromEnv } from './runtime/webhook-dependencies.js';
import { type SecretSource, secretMatches, webhookSecretSource } from './runtime/webhook-secret.js';

/** Largest AdmissionReview body the webhook reads (bytes). */
export const MAX_WEBHOOK_BODY_BYTES = 1024 * 1024;

/** What the webhook needs. `secret` defaults to the one the settings name. */
export type WebhookDeps = Pick<Dependencies, 'settings' | 'log' | 'events' | 'clock'> & {
  readonly secret?: SecretSource;
};

/**
 * Handles one AdmissionReview: checks the path secret (401 missing, 403 wrong), the size (413)
 * and the shape (400), then publishes the events it stands for and always allows. A failed
 * publish is logged, not returned: the API server must never wait on joiner, and the sweep
 * finds what a lost event would have reported.
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
  const expected = await (deps.secret ?? webhookSecretSource(deps.settings))();
  if (!secretMatches(presented, expected)) {
    deps.log.warn('rejected webhook call with a wrong secret', { path: redact(request.path) });
    return errorResponse(403, 'the webhook secret is wrong');
  }
  if (request.method !== 'POST')
    return errorResponse(405, `method ${request.method} is not allowed; POST an AdmissionReview`);
  if (encodedBodyBytes(event) > MAX_WEBHOOK_BODY_BYTES || request.body.length > MAX_WEBHOOK_BODY_BYTES) {
    return errorResponse(413, `the body is larger than ${MAX_WEBHOOK_BODY_BYTES} bytes`);
  }
  let review: ReturnType<typeof parseAdmissionReview>;
  try {
    review = parseAdmissionReview(JSON.parse(request.body.toString('utf8')));
  } catch (error) {
    const message =
      error instanceof SyntaxError ? `the body is not JSON: ${error.message}` : (error as Error).message;
    return errorResponse(400, message);
  }
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
