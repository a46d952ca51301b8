/** A small admission webhook backend for tests: records AdmissionReviews and answers them. */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A recorded request of an AdmissionReview. */
export interface ReviewRequest {
  uid: string;
  operation: string;
  subResource?: string;
  name: string;
  namespace?: string;
  resource: { resource: string };
  userInfo?: { username: string };
  object: { status?: { conditions?: { type: string; reason?: string; message?: string }[] } } | null;
}

/** The backend: its URL, what it received, and how it answers. */
export interface WebhookBackend {
  readonly url: string;
  readonly reviews: ReviewRequest[];
  /** Answer allowed (default), deny with a message, or hang for `delayMs`. */
  behaviour: { allowed: boolean; message?: string; delayMs?: number };
  close(): Promise<void>;
}

/** Starts a backend on 127.0.0.1. */
export async function startWebhookBackend(): Promise<WebhookBackend> {
  const reviews: ReviewRequest[] = [];
  const backend = { behaviour: { allowed: true } as WebhookBackend['behaviour'] };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const review = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { request: ReviewRequest };
      reviews.push(review.request);
      const { allowed, message, delayMs } = backend.behaviour;
      const answer = () => {
        if (res.destroyed) return;
        const body = JSON.stringify({
          apiVersion: 'admission.k8s.io/v1',
          kind: 'AdmissionReview',
          response: {
            uid: review.request.uid,
            allowed,
            ...(message ? { status: { code: 403, message } } : {}),
          },
        });
        res.writeHead(200, { 'Content-Type': 'application/json' }).end(body);
      };
      if (delayMs) setTimeout(answer, delayMs);
      else answer();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return Object.assign(backend, {
    url: `http://127.0.0.1:${port}/admit`,
    reviews,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    },
  });
}

/** A ValidatingWebhookConfiguration for `url`. */
export function webhookConfiguration(url: string, webhook: Record<string, unknown>) {
  return {
    apiVersion: 'admissionregistration.k8s.io/v1',
    kind: 'ValidatingWebhookConfiguration',
    metadata: { name: 'joiner' },
    webhooks: [
      {
        name: 'pods.joiner.sh',
        admissionReviewVersions: ['v1'],
        sideEffects: 'None',
        clientConfig: { url },
        failurePolicy: 'Ignore',
        timeoutSeconds: 2,
        ...webhook,
      },
    ],
  };
}
