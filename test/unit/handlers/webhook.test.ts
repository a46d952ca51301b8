import type { APIGatewayProxyEvent, APIGatewayProxyEventV2, Context } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import type { JoinerEvent } from '../../../functions/core/ports/event-publisher.js';
import type { Log } from '../../../functions/core/ports/log.js';
import { settingsFromEnv } from '../../../functions/handlers/runtime/settings.js';
import {
  createWebhookHandler,
  handleWebhook,
  type WebhookDeps,
} from '../../../functions/handlers/webhook.js';

const SECRET = 'abcdefghijklmnop0123456789';

function recordingLog(lines: string[]): Log {
  const at = (level: string) => (message: string) => {
    lines.push(`${level} ${message}`);
  };
  return { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') };
}

function deps(opts: { failPublish?: boolean } = {}) {
  const published: JoinerEvent[][] = [];
  const lines: string[] = [];
  const d: WebhookDeps = {
    settings: settingsFromEnv({ JOINER_WEBHOOK_SECRET: SECRET, JOINER_BUS_NAME: 'joiner' }),
    clock: { now: () => 1_700_000_000_000 },
    log: recordingLog(lines),
    events: {
      publish: async (events) => {
        if (opts.failPublish) throw new Error('PutEvents failed for 1 of 1 event(s)');
        published.push([...events]);
      },
    },
  };
  return { d, published, lines };
}

const unschedulableReview = {
  apiVersion: 'admission.k8s.io/v1',
  kind: 'AdmissionReview',
  request: {
    uid: 'rev-42',
    kind: { group: '', version: 'v1', kind: 'Pod' },
    resource: { group: '', version: 'v1', resource: 'pods' },
    subResource: 'status',
    operation: 'UPDATE',
    name: 'web-1',
    namespace: 'shop',
    object: {
      metadata: { name: 'web-1', namespace: 'shop', uid: 'pod-uid' },
      spec: {},
      status: { conditions: [{ type: 'PodScheduled', status: 'False', reason: 'Unschedulable' }] },
    },
    oldObject: null,
  },
};

function urlEvent(path: string, body: string, base64 = false): APIGatewayProxyEventV2 {
  return {
    version: '2.0',
    routeKey: '$default',
    rawPath: path,
    rawQueryString: '',
    headers: { 'content-type': 'application/json' },
    requestContext: { http: { method: 'POST', path } } as APIGatewayProxyEventV2['requestContext'],
    body: base64 ? Buffer.from(body).toString('base64') : body,
    isBase64Encoded: base64,
  };
}

function restEvent(path: string, body: string): APIGatewayProxyEvent {
  return {
    httpMethod: 'POST',
    path,
    body,
    isBase64Encoded: false,
    headers: {},
  } as unknown as APIGatewayProxyEvent;
}

describe('webhook handler', () => {
  it('publishes PodUnschedulable and allows the review (function URL event)', async () => {
    const { d, published } = deps();
    const res = await handleWebhook(d, urlEvent(`/${SECRET}`, JSON.stringify(unschedulableReview)));
    expect(res.statusCode).toBe(200);
    expect(JSON.parse(res.body)).toEqual({
      apiVersion: 'admission.k8s.io/v1',
      kind: 'AdmissionReview',
      response: { uid: 'rev-42', allowed: true },
    });
    expect(published).toEqual([
      [
        {
          detailType: 'PodUnschedulable',
          detail: { namespace: 'shop', name: 'web-1', uid: 'pod-uid' },
          time: 1_700_000_000_000,
        },
      ],
    ]);
  });

  it('reads base64 bodies and API Gateway REST events with a stage in the path', async () => {
    const { d, published } = deps();
    const b64 = await handleWebhook(d, urlEvent(`/${SECRET}`, JSON.stringify(unschedulableReview), true));
    const rest = await handleWebhook(d, restEvent(`/prod/${SECRET}`, JSON.stringify(unschedulableReview)));
    expect([b64.statusCode, rest.statusCode]).toEqual([200, 200]);
    expect(published).toHaveLength(2);
  });

  it('answers 401 without a secret or with a wrong one, forwarding nothing', async () => {
    const { d, published, lines } = deps();
    const body = JSON.stringify(unschedulableReview);
    expect((await handleWebhook(d, urlEvent('/', body))).statusCode).toBe(401);
    expect((await handleWebhook(d, urlEvent(`/${SECRET.slice(1)}x`, body))).statusCode).toBe(401);
    expect((await handleWebhook(d, urlEvent('/short', body))).statusCode).toBe(401);
    expect(published).toEqual([]);
    expect(lines.join('\n')).not.toContain(SECRET.slice(1));
  });

  it('answers 400 for a malformed %-encoded path, forwarding nothing and never throwing', async () => {
    const { d, published } = deps();
    const body = JSON.stringify(unschedulableReview);
    for (const path of ['/%E0%A4%A', '/prod/%', `/${SECRET}%zz`]) {
      const res = await handleWebhook(d, urlEvent(path, body));
      expect(res.statusCode).toBe(400);
      expect(JSON.parse(res.body).message).toMatch(/URL path is not valid percent-encoding/);
    }
    expect(published).toEqual([]);
  });

  const allowedWithoutForwarding = async (event: APIGatewayProxyEventV2, uid = '') => {
    const { d, published, lines } = deps();
    const started = performance.now();
    const res = await handleWebhook(d, event);
    expect(performance.now() - started).toBeLessThan(2_000);
    expect(res.statusCode).toBe(200);
    expect(JSON.parse(res.body)).toEqual({
      apiVersion: 'admission.k8s.io/v1',
      kind: 'AdmissionReview',
      response: { uid, allowed: true },
    });
    expect(published).toEqual([]);
    expect(lines).toContain('warn allowed a malformed webhook call without forwarding it');
  };

  it('allows bodies over 1 MiB (up to 10 MB) without reading or forwarding them', async () => {
    const big = JSON.stringify({ ...unschedulableReview, padding: 'x'.repeat(1024 * 1024) });
    await allowedWithoutForwarding(urlEvent(`/${SECRET}`, big));
    await allowedWithoutForwarding(urlEvent(`/${SECRET}`, big, true));
    await allowedWithoutForwarding(urlEvent(`/${SECRET}`, '['.repeat(10 * 1024 * 1024)));
  });

  it('allows non-JSON, non-AdmissionReview and non-POST calls with a valid review, forwarding nothing', async () => {
    await allowedWithoutForwarding(urlEvent(`/${SECRET}`, '{"apiVersion":'));
    await allowedWithoutForwarding(urlEvent(`/${SECRET}`, ''));
    await allowedWithoutForwarding(urlEvent(`/${SECRET}`, 'null'));
    await allowedWithoutForwarding(urlEvent(`/${SECRET}`, '[1,2,3]'));
    await allowedWithoutForwarding(urlEvent(`/${SECRET}`, JSON.stringify({ kind: 'Pod', metadata: {} })));
    await allowedWithoutForwarding(
      urlEvent(
        `/${SECRET}`,
        JSON.stringify({ ...unschedulableReview, apiVersion: 'admission.k8s.io/v1beta1' }),
      ),
      'rev-42',
    );
    const get = urlEvent(`/${SECRET}`, '');
    await allowedWithoutForwarding({
      ...get,
      requestContext: { ...get.requestContext, http: { ...get.requestContext.http, method: 'GET' } },
    });
  });

  it('allows a review without a uid, forwarding nothing', async () => {
    const review = structuredClone(unschedulableReview) as { request: { uid?: string } };
    delete review.request.uid;
    await allowedWithoutForwarding(urlEvent(`/${SECRET}`, JSON.stringify(review)));
  });

  it('forwards only pod refs for absurd pods (quantities 1e30, -5, abc; thousands of containers)', async () => {
    const { d, published } = deps();
    const review = structuredClone(unschedulableReview) as { request: { object: { spec: unknown } } };
    review.request.object.spec = {
      containers: Array.from({ length: 5_000 }, (_, i) => ({
        name: `c${i}`,
        image: 'x',
        resources: { requests: { cpu: ['1e30', '-5', 'abc', 7][i % 4], memory: { nested: true } } },
      })),
    };
    const started = performance.now();
    const res = await handleWebhook(d, urlEvent(`/${SECRET}`, JSON.stringify(review)));
    expect(performance.now() - started).toBeLessThan(2_000);
    expect(JSON.parse(res.body).response).toEqual({ uid: 'rev-42', allowed: true });
    expect(published).toEqual([
      [
        {
          detailType: 'PodUnschedulable',
          detail: { namespace: 'shop', name: 'web-1', uid: 'pod-uid' },
          time: 1_700_000_000_000,
        },
      ],
    ]);
  });

  it('still allows the review when publishing fails, and logs the failure', async () => {
    const { d, lines } = deps({ failPublish: true });
    const res = await handleWebhook(d, urlEvent(`/${SECRET}`, JSON.stringify(unschedulableReview)));
    expect(res.statusCode).toBe(200);
    expect(JSON.parse(res.body).response.allowed).toBe(true);
    expect(lines).toContain('error failed to publish admission events');
  });

  it('allows reviews that stand for no event without publishing', async () => {
    const { d, published } = deps();
    const review = structuredClone(unschedulableReview);
    review.request.object.status.conditions = [];
    const res = await handleWebhook(d, urlEvent(`/${SECRET}`, JSON.stringify(review)));
    expect(res.statusCode).toBe(200);
    expect(published).toEqual([]);
  });

  it('runs as a middy Lambda handler', async () => {
    const { d, published } = deps();
    const handler = createWebhookHandler(() => d);
    const context = {
      functionName: 'webhook',
      awsRequestId: 'req-1',
      getRemainingTimeInMillis: () => 5000,
    } as Context;
    const res = await handler(urlEvent(`/${SECRET}`, JSON.stringify(unschedulableReview)), context);
    expect(res.statusCode).toBe(200);
    expect(published).toHaveLength(1);
  });
});
