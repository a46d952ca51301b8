import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { admissionReview } from '../../../functions/core/admission/admission-review.js';
import type { JoinerEvent } from '../../../functions/core/ports/event-publisher.js';
import { silentLog } from '../../../functions/core/ports/log.js';
import { settingsFromEnv } from '../../../functions/handlers/runtime/settings.js';
import { handleWebhook, type WebhookDeps } from '../../../functions/handlers/webhook.js';

const SECRET = 'abcdefghijklmnop0123456789';

function deps() {
  const published: JoinerEvent[][] = [];
  const d: WebhookDeps = {
    settings: settingsFromEnv({ JOINER_WEBHOOK_SECRET: SECRET, JOINER_BUS_NAME: 'joiner' }),
    clock: { now: () => 1_700_000_000_000 },
    log: silentLog,
    events: { publish: async (events) => void published.push([...events]) },
  };
  return { d, published };
}

function event(path: string, body: string, method = 'POST'): APIGatewayProxyEventV2 {
  return {
    version: '2.0',
    routeKey: '$default',
    rawPath: path,
    rawQueryString: '',
    headers: {},
    requestContext: { http: { method, path } } as APIGatewayProxyEventV2['requestContext'],
    body,
    isBase64Encoded: false,
  };
}

const review = (request: unknown) => ({
  apiVersion: 'admission.k8s.io/v1',
  kind: 'AdmissionReview',
  request,
});

/** AdmissionReview-like bodies with any value in any field, plus arbitrary JSON and text. */
const bodies = fc.oneof(
  fc.string({ maxLength: 200 }),
  fc.jsonValue({ maxDepth: 4 }).map((v) => JSON.stringify(v)),
  fc
    .record(
      {
        uid: fc.oneof(fc.string(), fc.jsonValue()),
        kind: fc.oneof(fc.constant({ group: '', version: 'v1', kind: 'Pod' }), fc.jsonValue()),
        resource: fc.oneof(fc.constant({ group: '', version: 'v1', resource: 'pods' }), fc.jsonValue()),
        operation: fc.constantFrom('CREATE', 'UPDATE', 'DELETE', 'CONNECT', 'PATCH', 7),
        subResource: fc.constantFrom('status', undefined, ''),
        object: fc.oneof(
          fc.jsonValue({ maxDepth: 3 }),
          fc.record({
            metadata: fc.record({ name: fc.string(), namespace: fc.string(), uid: fc.string() }),
            spec: fc.jsonValue({ maxDepth: 3 }),
            status: fc.record({
              conditions: fc.array(
                fc.record({
                  type: fc.constantFrom('PodScheduled', 'Ready'),
                  status: fc.constantFrom('False', 'True'),
                  reason: fc.constantFrom('Unschedulable', 'x'),
                }),
              ),
            }),
          }),
        ),
      },
      { requiredKeys: [] },
    )
    .map((r) => JSON.stringify(review(r))),
);

describe('the webhook parser (property)', () => {
  it('answers every authenticated body with a valid allowed review, and forwards only valid reviews', async () => {
    await fc.assert(
      fc.asyncProperty(bodies, async (body) => {
        const { d, published } = deps();
        const res = await handleWebhook(d, event(`/${SECRET}`, body));
        expect(res.statusCode).toBe(200);
        const answer = JSON.parse(res.body);
        expect(answer).toMatchObject({
          apiVersion: 'admission.k8s.io/v1',
          kind: 'AdmissionReview',
          response: { allowed: true },
        });
        expect(typeof answer.response.uid).toBe('string');
        let valid = false;
        try {
          valid = admissionReview.safeParse(JSON.parse(body)).success;
        } catch {}
        if (!valid) expect(published).toEqual([]);
        for (const batch of published)
          for (const e of batch)
            expect(Object.keys(e.detail as object).sort()).toEqual(
              expect.arrayContaining(['name', 'namespace', 'uid']),
            );
      }),
      { numRuns: 400, seed: 19 },
    );
  });

  it('answers 401 to any other path (400 when its %-encoding is malformed), whatever the body', async () => {
    await fc.assert(
      fc.asyncProperty(fc.string({ maxLength: 60 }), bodies, async (segment, body) => {
        fc.pre(segment !== SECRET && encodeURIComponent(segment) !== SECRET);
        const { d, published } = deps();
        const res = await handleWebhook(d, event(`/${segment}`, body));
        expect(res.statusCode).toBe(malformedEncoding(segment) ? 400 : 401);
        expect(published).toEqual([]);
      }),
      { numRuns: 300, seed: 19 },
    );
  });
});

/** Whether a path segment's %-escapes are malformed (the handler answers 400 for those). */
function malformedEncoding(segment: string): boolean {
  try {
    decodeURIComponent(segment);
    return false;
  } catch {
    return true;
  }
}
