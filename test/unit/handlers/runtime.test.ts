import type { PutEventsCommand } from '@aws-sdk/client-eventbridge';
import type { SQSEvent } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { cachedEksTokens, eksToken } from '../../../functions/adapters/aws/eks-token.js';
import { EventBridgePublisher } from '../../../functions/adapters/aws/event-publisher.js';
import { delaySeconds } from '../../../functions/adapters/aws/timer-queue.js';
import type { Catalog } from '../../../functions/core/model/instance-type.js';
import type { Log } from '../../../functions/core/ports/log.js';
import { dependenciesFromEnv } from '../../../functions/handlers/runtime/dependencies.js';
import { lineLog } from '../../../functions/handlers/runtime/log.js';
import { portDependenciesFromEnv } from '../../../functions/handlers/runtime/port-dependencies.js';
import { parseSqsBatch } from '../../../functions/handlers/runtime/sqs-batch.js';

const credentials = {
  accessKeyId: 'AKIDEXAMPLE',
  secretAccessKey: 'wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY',
};
const T0 = Date.UTC(2026, 10, 23, 10, 0, 0);

function decode(token: string): URL {
  expect(token.startsWith('k8s-aws-v1.')).toBe(true);
  const encoded = token.slice('k8s-aws-v1.'.length);
  expect(encoded).toMatch(/^[A-Za-z0-9_-]+$/);
  return new URL(Buffer.from(encoded, 'base64url').toString('utf8'));
}

describe('EKS token', () => {
  it('is a presigned STS GetCallerIdentity URL bound to the cluster, valid 60 s', async () => {
    const url = decode(await eksToken({ clusterName: 'prod', region: 'us-west-2', credentials, now: T0 }));
    expect(url.host).toBe('sts.us-west-2.amazonaws.com');
    const q = url.searchParams;
    expect(q.get('Action')).toBe('GetCallerIdentity');
    expect(q.get('Version')).toBe('2011-06-15');
    expect(q.get('X-Amz-Algorithm')).toBe('AWS4-HMAC-SHA256');
    expect(q.get('X-Amz-Credential')).toBe('AKIDEXAMPLE/20261123/us-west-2/sts/aws4_request');
    expect(q.get('X-Amz-Date')).toBe('20261123T100000Z');
    expect(q.get('X-Amz-Expires')).toBe('60');
    expect(q.get('X-Amz-SignedHeaders')).toBe('host;x-k8s-aws-id');
    expect(q.get('X-Amz-Signature')).toMatch(/^[0-9a-f]{64}$/);
    expect(q.has('x-k8s-aws-id')).toBe(false);
  });

  it('signs the cluster name: another cluster gets another signature', async () => {
    const a = decode(await eksToken({ clusterName: 'a', region: 'us-west-2', credentials, now: T0 }));
    const b = decode(await eksToken({ clusterName: 'b', region: 'us-west-2', credentials, now: T0 }));
    expect(a.searchParams.get('X-Amz-Signature')).not.toBe(b.searchParams.get('X-Amz-Signature'));
  });

  it('is cached and replaced after 14 minutes', async () => {
    let now = T0;
    const tokens = cachedEksTokens({ clusterName: 'prod', region: 'us-west-2', credentials }, () => now);
    const first = await tokens();
    now += 13 * 60_000;
    expect(await tokens()).toBe(first);
    now += 60_000;
    expect(await tokens()).not.toBe(first);
  });
});

describe('line log', () => {
  it('prints Karpenter-style lines with the virtual time, the component and the fields', () => {
    const lines: string[] = [];
    const log = lineLog({ clock: { now: () => T0 }, sink: (l) => lines.push(l), name: 'provisioner' });
    log.info('computed packing of 3 node(s) for 20 pod(s)', { nodeclaims: 3 });
    log.debug('hidden');
    log.warn('no fields');
    expect(lines).toEqual([
      '2026-11-23T10:00:00.000Z INFO provisioner computed packing of 3 node(s) for 20 pod(s) {"nodeclaims":3}',
      '2026-11-23T10:00:00.000Z WARN provisioner no fields',
    ]);
  });
});

describe('parseSqsBatch', () => {
  it('keeps valid messages and reports bad JSON and schema mismatches as item failures', () => {
    const logged: string[] = [];
    const log: Log = {
      debug() {},
      info() {},
      warn() {},
      error: (m, f) => logged.push(`${m} ${JSON.stringify(f)}`),
    };
    const record = (messageId: string, body: string) => ({ messageId, body }) as SQSEvent['Records'][number];
    const event: SQSEvent = {
      Records: [record('m1', '{"id":"a"}'), record('m2', 'not json'), record('m3', '{"id":7}')],
    };
    const { items, failures } = parseSqsBatch(event, z.object({ id: z.string() }), log);
    expect(items).toEqual([{ messageId: 'm1', body: { id: 'a' } }]);
    expect(failures).toEqual([{ itemIdentifier: 'm2' }, { itemIdentifier: 'm3' }]);
    expect(logged[0]).toContain('m2');
    expect(logged[0]).toContain('not JSON');
    expect(logged[1]).toContain('id:');
  });
});

describe('EventBridge publisher', () => {
  it('retries only the entries that failed and throws naming those still failing', async () => {
    const calls: number[] = [];
    const api = {
      send: async (command: PutEventsCommand) => {
        const entries = command.input.Entries ?? [];
        calls.push(entries.length);
        return {
          FailedEntryCount: entries.filter((e) => e.Detail?.includes('"bad"')).length,
          Entries: entries.map((e) =>
            e.Detail?.includes('"bad"')
              ? { ErrorCode: 'InternalFailure', ErrorMessage: 'boom' }
              : { EventId: 'x' },
          ),
        };
      },
    };
    const publisher = new EventBridgePublisher(api, {
      busName: 'joiner',
      clock: { now: () => T0 },
      sleep: async () => {},
    });
    const events = Array.from({ length: 12 }, (_, i) => ({
      detailType: 'PodGone',
      detail: { n: i === 11 ? 'bad' : 'ok' },
    }));
    await expect(publisher.publish(events)).rejects.toThrow(
      /failed for 1 of 12 event\(s\): PodGone \{"n":"bad"\}: InternalFailure \(boom\)/,
    );
    expect(calls).toEqual([10, 2, 1, 1, 1]);
  });
});

describe('timer delay', () => {
  it('rounds up to seconds within 0..900', () => {
    expect(delaySeconds(T0 - 1000, T0)).toBe(0);
    expect(delaySeconds(T0 + 1500, T0)).toBe(2);
    expect(delaySeconds(T0 + 3_600_000, T0)).toBe(900);
  });
});

describe('dependenciesFromEnv', () => {
  it('builds nothing until used, names the missing variable, and reuses what it built', () => {
    const deps = dependenciesFromEnv({ AWS_REGION: 'us-west-2', JOINER_BUS_NAME: 'joiner' });
    expect(deps.catalog.instanceTypes.length).toBeGreaterThan(0);
    expect(() => deps.store).toThrow(/JOINER_TABLE_NAME/);
    expect(() => deps.timers).toThrow(/JOINER_TIMERS_QUEUE_URL/);
    expect(() => deps.cluster).toThrow(/JOINER_CLUSTER_NAME/);
    const again = dependenciesFromEnv({ AWS_REGION: 'us-west-2', JOINER_BUS_NAME: 'joiner' });
    expect(again.events).toBe(deps.events);
  });

  it('uses the overrides', () => {
    const clock = { now: () => 42 };
    const deps = dependenciesFromEnv({ AWS_REGION: 'us-west-2' }, { clock });
    expect(deps.clock.now()).toBe(42);
    const catalog = { instanceTypes: [] } as unknown as Catalog;
    expect(dependenciesFromEnv({ AWS_REGION: 'us-west-2' }, { catalog }).catalog).toBe(catalog);
  });

  it('the port dependencies have no catalog and share the built members with the full ones', () => {
    const env = { AWS_REGION: 'us-west-2', JOINER_BUS_NAME: 'joiner' };
    const ports = portDependenciesFromEnv(env);
    expect('catalog' in ports).toBe(false);
    expect(ports.events).toBe(dependenciesFromEnv(env).events);
  });
});
