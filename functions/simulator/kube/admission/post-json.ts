/**
 * A JSON POST with a timeout: over http on kept-alive connections (as the API server's client
 * reuses its connections to a webhook), or over https with a CA bundle on a connection of its own.
 */
import { Agent as HttpAgent, request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';

/** Arms `fn` after `ms`; returns its cancel. */
export type ArmTimer = (fn: () => void, ms: number) => () => void;

/**
 * The connections to http webhooks, kept open between calls: a new TCP connection per admission
 * request cost both ends a connect and an accept on every write the webhook sees. Idle ones do not
 * keep the process alive; the simulated endpoints never close them (loopback-server.ts).
 */
const httpAgent = new HttpAgent({ keepAlive: true });

const wallTimer: ArmTimer = (fn, ms) => {
  const timer = setTimeout(fn, ms);
  return () => clearTimeout(timer);
};

/**
 * POSTs `body` as JSON and parses the JSON answer; rejects on non-2xx, bad JSON or timeout. The
 * timeout runs on `arm` (default: wall time; a simulation passes its virtual clock).
 */
export function postJson(
  url: string,
  body: unknown,
  timeoutMs: number,
  caBundle?: string,
  arm: ArmTimer = wallTimer,
): Promise<unknown> {
  const target = new URL(url);
  const payload = JSON.stringify(body);
  const options = {
    method: 'POST',
    agent: target.protocol === 'https:' ? (false as const) : httpAgent,
    headers: { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(payload) },
    ...(caBundle ? { ca: Buffer.from(caBundle, 'base64').toString('utf8') } : {}),
  };
  return new Promise((resolve, reject) => {
    const send = target.protocol === 'https:' ? httpsRequest : httpRequest;
    const req = send(target, options, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('error', reject);
      res.on('end', () => {
        cancel();
        const text = Buffer.concat(chunks).toString('utf8');
        if ((res.statusCode ?? 0) < 200 || (res.statusCode ?? 0) >= 300) {
          reject(new Error(`the server responded with HTTP ${res.statusCode}: ${text.slice(0, 200)}`));
          return;
        }
        try {
          resolve(JSON.parse(text));
        } catch {
          reject(new Error(`the response is not JSON: ${text.slice(0, 200)}`));
        }
      });
    });
    const cancel = arm(() => {
      req.destroy(new Error(`context deadline exceeded (timeout ${timeoutMs} ms)`));
    }, timeoutMs);
    req.on('error', (err) => {
      cancel();
      reject(err);
    });
    req.end(payload);
  });
}
