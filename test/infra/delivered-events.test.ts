/**
 * Every event the synthesized stack makes AWS deliver, fed to the real handler it reaches: the
 * Scheduled Event of each schedule rule, the EventBridge envelope of each event rule with the
 * target's Input / InputPath / InputTransformer applied, wrapped in the SQS batch of the event
 * source mapping that consumes the target queue, the timer messages the controller sends to the
 * queue its environment names, the CloudFormation requests of the installer custom resource and an
 * AdmissionReview through the webhook's function URL. Only the handlers' downstream dependencies
 * are fakes. The stack must also match the shared descriptions the simulated cloud reads, so the
 * simulator delivers what AWS would.
 */
import type { Message } from '@aws-sdk/client-sqs';
import type { CdkCustomResourceEvent, Context, SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { SqsTimerScheduler } from '../../functions/adapters/aws/timer-queue.js';
import { bundledCatalog } from '../../functions/core/catalog/bundled.js';
import {
  type CatalogSnapshot,
  SNAPSHOT_VERSION,
  spotPart,
  type TypesPart,
  typesPart,
} from '../../functions/core/catalog/live/catalog-snapshot.js';
import type { RefreshDeps } from '../../functions/core/catalog/live/refresh-catalog.js';
import type { KubeManifest } from '../../functions/core/install/kube-manifest.js';
import {
  CATALOG_DEPLOY_PHYSICAL_ID,
  CATALOG_DEPLOY_RESOURCE_TYPE,
  catalogDeployCreateEvent,
} from '../../functions/handlers/catalog-deploy-event.js';
import { createCatalogRefreshHandler } from '../../functions/handlers/catalog-refresh.js';
import { createDisruptionHandler } from '../../functions/handlers/disruption.js';
import { createInstallerHandler } from '../../functions/handlers/installer.js';
import { createInterruptionHandler } from '../../functions/handlers/interruption.js';
import { createLifecycleHandler } from '../../functions/handlers/lifecycle.js';
import { createProvisionerHandler } from '../../functions/handlers/provisioner.js';
import { settingsFromEnv } from '../../functions/handlers/runtime/settings.js';
import { createWebhookHandler } from '../../functions/handlers/webhook.js';
import { ENV, REQUIRED_ENV } from '../../functions/shared/env.js';
import { AWS_DETAIL_TYPES, DETAIL_TYPES, EVENT_RULES } from '../../functions/shared/event-rules.js';
import {
  EVENT_SOURCES,
  FUNCTIONS,
  type FunctionName,
  SCHEDULES,
  type ScheduleSpec,
  scheduleExpression,
  visibilityTimeoutSeconds,
} from '../../functions/shared/event-sources.js';
import { type TargetInput, targetPayload, targetPayloadText } from '../../functions/shared/target-input.js';
import { compileEventPattern } from '../../functions/simulator/eventbridge/event-pattern.js';
import { startFunctionUrl } from '../../functions/simulator/runner/function-url.js';
import { createLambdaContext } from '../../functions/simulator/runner/lambda-context.js';
import { scheduledEvent } from '../../functions/simulator/runner/schedules.js';
import { toSqsRecord } from '../../functions/simulator/runner/sqs-records.js';
import { createJoinerApp } from '../../lib/app.js';
import { FakeCloud, FakeCluster, MemoryStore, RecordingLog } from '../unit/core/provisioning/fakes.js';
import { RecordingTimers } from '../unit/core/provisioning/harness.js';
import { stubCode } from './stack-fixture.js';
import { ofType, referencedId, resolveValue, type TemplateResources } from './template-values.js';

const NOW = Date.UTC(2025, 5, 1, 12);
const ACCOUNT = '111111111111';
const REGION = 'us-west-2';
const SECRET = 'S3cretS3cretS3cretS3cretS3cretS3cretS3cr';

const { app, stack } = createJoinerApp({
  context: { 'joiner:clusterName': 'prod', 'joiner:account': ACCOUNT, 'joiner:region': REGION },
  overrides: { code: stubCode },
});
const resources = app.synth().getStackArtifact(stack.artifactId).template.Resources as TemplateResources;

type Props = Record<string, any>;
const props = (id: string): Props => resources[id]?.Properties ?? {};

/** joiner's functions by logical id (their service name says which one). */
const functionOf = new Map<string, FunctionName>(
  ofType(resources, 'AWS::Lambda::Function').flatMap(([id, r]) => {
    const service = (r.Properties as Props).Environment?.Variables?.[ENV.serviceName] as string | undefined;
    return service?.startsWith('joiner-') ? [[id, service.slice('joiner-'.length) as FunctionName]] : [];
  }),
);

/** Event source mappings by queue logical id. */
const mappingOf = new Map<string, Props>(
  ofType(resources, 'AWS::Lambda::EventSourceMapping').map(([, r]) => [
    referencedId((r.Properties as Props).EventSourceArn),
    r.Properties as Props,
  ]),
);

/** The AWS service events joiner's rules match, one realistic detail per detail-type. */
const AWS_SAMPLES: Record<string, { source: string; detail: unknown }> = {
  [AWS_DETAIL_TYPES.spotInterruption]: {
    source: 'aws.ec2',
    detail: { 'instance-id': 'i-0abc123', 'instance-action': 'terminate' },
  },
  [AWS_DETAIL_TYPES.rebalanceRecommendation]: { source: 'aws.ec2', detail: { 'instance-id': 'i-0abc123' } },
  [AWS_DETAIL_TYPES.instanceStateChange]: {
    source: 'aws.ec2',
    detail: { 'instance-id': 'i-0abc123', state: 'terminated' },
  },
  [AWS_DETAIL_TYPES.healthEvent]: {
    source: 'aws.health',
    detail: {
      service: 'EC2',
      eventTypeCategory: 'scheduledChange',
      eventTypeCode: 'AWS_EC2_INSTANCE_RETIREMENT_SCHEDULED',
      startTime: 'Sat, 07 Jun 2025 12:00:00 GMT',
      affectedEntities: [{ entityValue: 'i-0abc123' }],
    },
  },
};

/** What the webhook publishes on joiner's bus, one per detail-type. */
const JOINER_SAMPLES: Record<string, unknown> = {
  [DETAIL_TYPES.podUnschedulable]: { namespace: 'shop', name: 'web-1', uid: 'uid-1' },
  [DETAIL_TYPES.nodeRegistered]: { nodeName: 'ip-10-0-0-1', providerId: 'aws:///us-west-2a/i-0abc123' },
  [DETAIL_TYPES.nodeReady]: { nodeName: 'ip-10-0-0-1' },
  [DETAIL_TYPES.podReady]: {
    namespace: 'kube-system',
    name: 'multus-x',
    uid: 'uid-2',
    nodeName: 'ip-10-0-0-1',
  },
  [DETAIL_TYPES.podGone]: { namespace: 'shop', name: 'web-2', uid: 'uid-3', nodeName: 'ip-10-0-0-1' },
  [DETAIL_TYPES.configurationChanged]: { group: 'karpenter.sh', kind: 'NodePool', name: 'general' },
  [DETAIL_TYPES.nodeDeleted]: {
    kind: 'Node',
    name: 'ip-10-0-0-1',
    nodeClaim: 'default-abc12',
    providerId: 'aws:///us-west-2a/i-0abc123',
  },
};

/** EventBridge envelopes for every detail-type a rule's pattern names (each checked to match it). */
function eventsMatching(pattern: Props): Record<string, unknown>[] {
  const detailTypes = (pattern['detail-type'] ?? []) as string[];
  expect(detailTypes.length, `pattern ${JSON.stringify(pattern)} names no detail-type`).toBeGreaterThan(0);
  return detailTypes.map((detailType, n) => {
    const aws = AWS_SAMPLES[detailType];
    const joiner = JOINER_SAMPLES[detailType];
    if (!aws && joiner === undefined) throw new Error(`no sample event for detail-type '${detailType}'`);
    const event = {
      version: '0',
      id: `00000000-0000-4000-8000-00000000000${n}`,
      'detail-type': detailType,
      source: aws?.source ?? (pattern.source as string[])[0],
      account: ACCOUNT,
      time: '2025-06-01T12:00:00Z',
      region: REGION,
      resources: [],
      detail: aws?.detail ?? joiner,
    };
    expect(compileEventPattern(pattern)(event), `sample ${detailType} matches its rule`).toBe(true);
    return event;
  });
}

function targetInputOf(target: Props): TargetInput {
  return {
    ...(target.Input !== undefined ? { Input: target.Input } : {}),
    ...(target.InputPath !== undefined ? { InputPath: target.InputPath } : {}),
    ...(target.InputTransformer !== undefined ? { InputTransformer: target.InputTransformer } : {}),
  };
}

/** The bodies each queue (logical id) receives: rule deliveries and the controller's timer messages. */
function queueBodies(): Map<string, string[]> {
  const bodies = new Map<string, string[]>();
  const add = (queue: string, body: string) => bodies.set(queue, [...(bodies.get(queue) ?? []), body]);
  for (const [ruleId, rule] of ofType(resources, 'AWS::Events::Rule')) {
    const p = rule.Properties as Props;
    if (!p.EventPattern) continue;
    for (const target of p.Targets as Props[]) {
      const queue = referencedId(target.Arn);
      if (resources[queue]?.Type !== 'AWS::SQS::Queue') continue;
      for (const event of eventsMatching(p.EventPattern))
        add(queue, targetPayloadText(event, targetInputOf(target), { name: ruleId, arn: ruleId }));
    }
  }
  const timerQueues = new Set(
    [...functionOf.keys()]
      .map((id) => props(id).Environment?.Variables?.[ENV.timersQueueUrl])
      .filter((v) => v !== undefined)
      .map(referencedId),
  );
  for (const queue of timerQueues) {
    // The body the controller's real timer scheduler sends.
    const sent: string[] = [];
    const scheduler = new SqsTimerScheduler(
      { send: async (command) => sent.push(command.input.MessageBody ?? '') },
      'url',
      { now: () => NOW },
    );
    void scheduler.schedule('default-abc12', NOW + 30_000);
    for (const body of sent) add(queue, body);
  }
  return bodies;
}

/** The SQS event Lambda builds from the first `batchSize` messages of a queue. */
function sqsBatch(queueId: string, bodies: readonly string[], batchSize: number): SQSEvent {
  const records = bodies.slice(0, batchSize).map((body, n) => {
    const message: Message = {
      MessageId: `m-${n}`,
      ReceiptHandle: `r-${n}`,
      Body: body,
      MD5OfBody: '',
      Attributes: { ApproximateReceiveCount: '1', SentTimestamp: String(NOW) },
    };
    return toSqsRecord(message, { queueArn: `arn:aws:sqs:${REGION}:${ACCOUNT}:${queueId}`, region: REGION });
  });
  return { Records: records };
}

/** The controller functions' handlers over in-memory fakes, with the log they write. */
function controllerHandler(name: FunctionName) {
  const log = new RecordingLog();
  const ports = {
    cluster: new FakeCluster(),
    store: new MemoryStore(),
    cloud: new FakeCloud(),
    timers: new RecordingTimers(),
    events: { publish: async () => {} },
    clock: { now: () => NOW },
    log,
    catalog: bundledCatalog,
  };
  const refreshDeps = fakeRefreshDeps(log);
  const factories = {
    catalog: () => createCatalogRefreshHandler(() => refreshDeps),
    provisioner: () => createProvisionerHandler(() => ports),
    lifecycle: () => createLifecycleHandler(() => ports),
    interruption: () => createInterruptionHandler(() => ports),
    disruption: () => createDisruptionHandler(() => ports),
  } as Partial<Record<FunctionName, () => (event: unknown, context: Context) => Promise<unknown>>>;
  const factory = factories[name];
  if (!factory) throw new Error(`function '${name}' is not a queue or schedule consumer`);
  return { handler: factory(), log };
}

/** The catalog refresh over an in-memory snapshot store and a reader of two instance types. */
function fakeRefreshDeps(log: RecordingLog): RefreshDeps {
  const snapshot: CatalogSnapshot = {};
  const types = typesPart({
    region: REGION,
    fetchedAt: NOW,
    zones: [{ name: `${REGION}a`, id: 'usw2-az1' }],
    types: [
      {
        name: 'm5.large',
        vcpu: 2,
        memoryMiB: 8192,
        arch: 'amd64',
        maxEnis: 3,
        ipv4PerEni: 10,
        usage: ['on-demand', 'spot'],
      },
    ],
    offered: new Map([['m5.large', [`${REGION}a`]]]),
    onDemandPrices: new Map([['m5.large', 0.096]]),
  });
  return {
    region: REGION,
    now: () => NOW,
    log,
    reader: {
      readTypes: async () => ({ part: types, skipped: [] }),
      readSpot: async (now) => ({
        part: spotPart(REGION, now, { 'm5.large': { [`${REGION}a`]: 0.04 } }),
        skipped: [],
      }),
    },
    store: {
      load: async () => snapshot,
      saveTypes: async (part) => {
        (snapshot as { types?: TypesPart }).types = part;
        return true;
      },
      saveSpot: async () => true,
    },
  };
}

/** The refresh scope a schedule's constant input asks for. */
function scopeOf(spec: ScheduleSpec): string | undefined {
  return spec.input?.Input ? (JSON.parse(spec.input.Input) as { refresh: string }).refresh : undefined;
}

const context = (name: FunctionName) =>
  createLambdaContext({ region: REGION, account: ACCOUNT, functionPrefix: 'joiner' }, name, 30_000);

describe('events the synthesized stack delivers', () => {
  const bodies = queueBodies();

  it('every SQS event source mapping: its batch is accepted whole by the real handler', async () => {
    expect(mappingOf.size).toBe(EVENT_SOURCES.length);
    for (const [queueId, mapping] of mappingOf) {
      const name = functionOf.get(referencedId(mapping.FunctionName));
      expect(name, `mapping of ${queueId} targets a joiner function`).toBeDefined();
      const fn = name as FunctionName;
      expect(mapping.FunctionResponseTypes, `${queueId}: handlers report batch item failures`).toEqual([
        'ReportBatchItemFailures',
      ]);
      const queued = bodies.get(queueId) ?? [];
      expect(queued.length, `queue ${queueId} (${fn}) has a producer in the stack`).toBeGreaterThan(0);
      const event = sqsBatch(queueId, queued, mapping.BatchSize ?? 10);
      const { handler, log } = controllerHandler(fn);
      const response = (await handler(event, context(fn))) as SQSBatchResponse;
      const malformed = log.lines.filter((l) => l.message === 'dropping malformed message');
      expect(malformed, `${fn} rejected a message of ${queueId}`).toEqual([]);
      expect(response.batchItemFailures, `${fn} failed messages of ${queueId}`).toEqual([]);
    }
  });

  it('every rule target reaches a handler (a consumed queue or a joiner function)', () => {
    for (const [ruleId, rule] of ofType(resources, 'AWS::Events::Rule')) {
      for (const target of (rule.Properties as Props).Targets as Props[]) {
        const id = referencedId(target.Arn);
        expect(mappingOf.has(id) || functionOf.has(id), `${ruleId} -> ${id}`).toBe(true);
      }
    }
  });

  it('every schedule rule: its Scheduled Event (target input applied) is accepted by the function', async () => {
    const schedules = ofType(resources, 'AWS::Events::Rule').filter(
      ([, r]) => (r.Properties as Props).ScheduleExpression,
    );
    expect(schedules).toHaveLength(SCHEDULES.length);
    for (const [ruleId, rule] of schedules) {
      const p = rule.Properties as Props;
      const spec = SCHEDULES.find((s) => scheduleExpression(s) === p.ScheduleExpression) as ScheduleSpec;
      for (const target of p.Targets as Props[]) {
        const fn = functionOf.get(referencedId(target.Arn)) as FunctionName;
        const ruleArn = `arn:aws:events:${REGION}:${ACCOUNT}:rule/${ruleId}`;
        const event = targetPayload(scheduledEvent(ruleArn, REGION, ACCOUNT, NOW), targetInputOf(target), {
          name: ruleId,
          arn: ruleArn,
        });
        const { handler, log } = controllerHandler(fn);
        if (fn === 'catalog') {
          // A spot-price schedule before any snapshot widens to a whole refresh, as on first deploy.
          await expect(handler(event, context(fn)), `${ruleId} -> ${fn}`).resolves.toMatchObject({
            scope: 'catalog',
          });
          expect(scopeOf(spec)).toBeDefined();
          await expect(handler(event, context(fn))).resolves.toMatchObject({ scope: scopeOf(spec) });
        } else await expect(handler(event, context(fn)), `${ruleId} -> ${fn}`).resolves.toBeUndefined();
        expect(log.lines.filter((l) => l.level === 'error')).toEqual([]);
      }
    }
  });

  it("the installer custom resource: CloudFormation's Create, Update and Delete requests are handled", async () => {
    const [[id, resource]] = ofType(resources, 'Custom::JoinerClusterInstall') as [[string, never]];
    const properties = resolveValue((resource as { Properties: Props }).Properties) as Props;
    const applied: KubeManifest[] = [];
    const deleted: KubeManifest[] = [];
    const handler = createInstallerHandler(() => ({
      log: new RecordingLog(),
      manifests: () => ({
        apply: async (m) => {
          applied.push(m);
          return 'created' as const;
        },
        delete: async (m) => {
          deleted.push(m);
          return true;
        },
        get: async () => undefined,
      }),
      secret: async () => SECRET,
    }));
    const base = {
      ServiceToken: properties.ServiceToken,
      ResponseURL: 'https://cloudformation-custom-resource-response-uswest2.s3.amazonaws.com/x',
      StackId: `arn:aws:cloudformation:${REGION}:${ACCOUNT}:stack/Joiner/1`,
      RequestId: 'req-1',
      LogicalResourceId: id,
      ResourceType: 'Custom::JoinerClusterInstall',
      ResourceProperties: properties,
    };
    const created = await handler(
      { ...base, RequestType: 'Create' } as CdkCustomResourceEvent,
      context('installer'),
    );
    expect(created.PhysicalResourceId).toBe('joiner-install-prod');
    expect(applied.length).toBeGreaterThan(0);
    expect(JSON.stringify(applied)).toContain(SECRET);
    const physical = { PhysicalResourceId: created.PhysicalResourceId as string };
    const update = { ...base, ...physical, RequestType: 'Update', OldResourceProperties: properties };
    await expect(handler(update as CdkCustomResourceEvent, context('installer'))).resolves.toMatchObject(
      physical,
    );
    const remove = { ...base, ...physical, RequestType: 'Delete' };
    await expect(handler(remove as CdkCustomResourceEvent, context('installer'))).resolves.toMatchObject(
      physical,
    );
    expect(deleted.length).toBe(applied.length / 2);
  });

  it("the webhook's function URL: an AdmissionReview request is accepted and forwarded", async () => {
    const urls = ofType(resources, 'AWS::Lambda::Url');
    expect(urls).toHaveLength(1);
    const [[, url]] = urls as unknown as [[string, { Properties: Props }]];
    expect(url.Properties.AuthType).toBe('NONE');
    expect(functionOf.get(referencedId(url.Properties.TargetFunctionArn))).toBe('webhook');
    const published: unknown[] = [];
    const handler = createWebhookHandler(() => ({
      settings: settingsFromEnv({ [ENV.busName]: 'joiner' }),
      clock: { now: () => NOW },
      log: new RecordingLog(),
      events: { publish: async (events) => void published.push(...events) },
      secret: async () => SECRET,
    }));
    const endpoint = await startFunctionUrl((event) => handler(event, context('webhook')));
    try {
      const review = {
        apiVersion: 'admission.k8s.io/v1',
        kind: 'AdmissionReview',
        request: {
          uid: 'rev-1',
          kind: { group: '', version: 'v1', kind: 'Pod' },
          resource: { group: '', version: 'v1', resource: 'pods' },
          subResource: 'status',
          operation: 'UPDATE',
          name: 'web-1',
          namespace: 'shop',
          object: {
            metadata: { name: 'web-1', namespace: 'shop', uid: 'uid-1' },
            spec: {},
            status: { conditions: [{ type: 'PodScheduled', status: 'False', reason: 'Unschedulable' }] },
          },
          oldObject: null,
        },
      };
      const response = await fetch(`${endpoint.url}${SECRET}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(review),
      });
      expect(response.status).toBe(200);
      expect(await response.json()).toMatchObject({ response: { uid: 'rev-1', allowed: true } });
      expect(published).toHaveLength(1);
    } finally {
      await endpoint.close();
    }
  });

  it('every function gets the environment variables it requires', () => {
    expect(new Set(functionOf.values())).toEqual(new Set(Object.keys(FUNCTIONS)));
    for (const [id, name] of functionOf) {
      const env = resolveValue(props(id).Environment?.Variables ?? {}) as Record<string, string>;
      for (const variable of REQUIRED_ENV[name]) expect(env[variable], `${name}: ${variable}`).toBeTruthy();
    }
  });
});

describe('the synthesized stack matches the shared descriptions the simulated cloud reads', () => {
  it('queues, event source mappings and functions', () => {
    for (const source of EVENT_SOURCES) {
      const entry = [...mappingOf].find(
        ([, m]) => functionOf.get(referencedId(m.FunctionName)) === source.function,
      );
      expect(entry, `mapping of ${source.function}`).toBeDefined();
      const [queueId, mapping] = entry as [string, Props];
      expect(mapping).toMatchObject({
        BatchSize: source.batchSize,
        MaximumBatchingWindowInSeconds: source.batchingWindowSeconds,
        ScalingConfig: { MaximumConcurrency: source.maxConcurrency },
      });
      expect(props(queueId).VisibilityTimeout).toBe(visibilityTimeoutSeconds(source));
      expect(props(queueId).RedrivePolicy.maxReceiveCount).toBe(source.maxReceiveCount);
    }
    for (const [id, name] of functionOf) {
      const spec = FUNCTIONS[name];
      expect(props(id)).toMatchObject({ Timeout: spec.timeoutSeconds, MemorySize: spec.memoryMiB });
      expect(props(id).ReservedConcurrentExecutions).toBeUndefined();
    }
  });

  it('event rules: pattern, queue and target input', () => {
    const rules = ofType(resources, 'AWS::Events::Rule').filter(
      ([, r]) => (r.Properties as Props).EventPattern,
    );
    expect(rules).toHaveLength(EVENT_RULES.length);
    for (const spec of EVENT_RULES) {
      const found = rules.find(([, r]) => (r.Properties as Props).Description === spec.description);
      expect(found, spec.id).toBeDefined();
      const p = (found as [string, { Properties: Props }])[1].Properties;
      expect(p.EventPattern).toEqual(spec.pattern);
      expect(p.Targets).toHaveLength(1);
      const queueId = referencedId(p.Targets[0].Arn);
      expect(functionOf.get(referencedId(mappingOf.get(queueId)?.FunctionName))).toBe(
        EVENT_SOURCES.find((s) => s.queue === spec.queue)?.function,
      );
      expect(targetInputOf(p.Targets[0])).toEqual(spec.input ?? {});
    }
  });

  it('every schedule (sweep, catalog refresh): expression, function, retries and input', () => {
    const rules = ofType(resources, 'AWS::Events::Rule').filter(
      ([, r]) => (r.Properties as Props).ScheduleExpression,
    ) as unknown as [string, { Properties: Props }][];
    for (const spec of SCHEDULES) {
      const found = rules.filter(([, r]) => r.Properties.ScheduleExpression === scheduleExpression(spec));
      expect(found, spec.id).toHaveLength(1);
      const [target] = found[0][1].Properties.Targets as Props[];
      expect(functionOf.get(referencedId(target?.Arn))).toBe(spec.function);
      expect(target?.RetryPolicy).toEqual({
        MaximumRetryAttempts: spec.retryAttempts,
        MaximumEventAgeInSeconds: spec.maxEventAgeSeconds,
      });
      expect(targetInputOf(target as Props)).toEqual(spec.input ?? {});
    }
  });

  it('the deploy-time catalog refresh: the custom resource the simulator delivers, handled by the real function', async () => {
    const [[, resource]] = ofType(resources, CATALOG_DEPLOY_RESOURCE_TYPE) as unknown as [
      [string, { Properties: Props }],
    ];
    const simulated = catalogDeployCreateEvent(REGION, ACCOUNT, SNAPSHOT_VERSION);
    const { ServiceToken: _token, ...declared } = resource.Properties;
    const { ServiceToken: _simToken, ...delivered } = simulated.ResourceProperties;
    expect(delivered).toEqual(declared);
    const { handler, log } = controllerHandler('catalog');
    await expect(handler(simulated, context('catalog'))).resolves.toEqual({
      PhysicalResourceId: CATALOG_DEPLOY_PHYSICAL_ID,
      Data: { InstanceTypes: 1, SpotPrices: 1 },
    });
    expect(log.lines.filter((l) => l.level === 'error' || l.level === 'warn')).toEqual([]);
  });
});
