/**
 * A NodePool or NodeClass created or whose spec changed starts a provisioning pass (Karpenter
 * provisions as soon as the pool appears): the webhook is called for it, turns it into a
 * ConfigurationChanged event, and the provisioning queue's rule takes that event.
 */
import { run } from '@bufbuild/cel';
import { describe, expect, it } from 'vitest';
import { admissionEvents } from '../../../../functions/core/admission/admission-events.js';
import { parseAdmissionReview } from '../../../../functions/core/admission/admission-review.js';
import { JOINER_EVENT_DETAILS } from '../../../../functions/core/events/joiner-events.js';
import { joinerManifests } from '../../../../functions/core/install/index.js';
import { DETAIL_TYPES, EVENT_RULES, JOINER_EVENT_SOURCE } from '../../../../functions/shared/event-rules.js';

type Obj = Record<string, unknown>;

const pool = (spec: Obj, status: Obj = {}): Obj => ({
  apiVersion: 'karpenter.sh/v1',
  kind: 'NodePool',
  metadata: { name: 'general', generation: 1 },
  spec,
  status,
});

function review(
  group: string,
  resource: string,
  kind: string,
  operation: string,
  object: Obj | null,
  oldObject: Obj | null,
) {
  return parseAdmissionReview({
    apiVersion: 'admission.k8s.io/v1',
    kind: 'AdmissionReview',
    request: {
      uid: 'review-1',
      kind: { group, version: 'v1', kind },
      resource: { group, version: 'v1', resource },
      name: 'general',
      operation,
      object,
      oldObject,
    },
  }).request;
}

const toCel = (value: unknown): unknown => {
  if (Array.isArray(value)) return value.map(toCel);
  if (value !== null && typeof value === 'object')
    return new Map(Object.entries(value).map(([k, v]) => [k, toCel(v)]));
  if (typeof value === 'number' && Number.isInteger(value)) return BigInt(value);
  return value;
};

const [configuration] = joinerManifests({ webhookUrl: 'https://hook.example/s3cr3t' }).filter(
  (m) => m.kind === 'ValidatingWebhookConfiguration',
);
type Webhook = {
  name: string;
  rules: { apiGroups: string[]; resources: string[]; operations: string[] }[];
  matchConditions: { expression: string }[];
};
const webhook = (configuration.webhooks as Webhook[]).find((w) => w.name === 'configuration.joiner.sh');

function called(operation: string, object: unknown, oldObject: unknown): boolean {
  if (!webhook) throw new Error('no configuration webhook');
  const vars = { object: toCel(object), oldObject: toCel(oldObject), request: toCel({ operation }) };
  return webhook.matchConditions.every((c) => run(c.expression, vars as never) === true);
}

describe('NodePool / NodeClass changes start a provisioning pass', () => {
  it('the webhook configuration asks for creations and updates of every NodePool and NodeClass kind', () => {
    expect(webhook).toBeDefined();
    const pairs = (webhook?.rules ?? []).flatMap((r) =>
      r.apiGroups.flatMap((g) => r.resources.map((res) => `${res}.${g}:${r.operations.join('+')}`)),
    );
    for (const want of [
      'nodepools.karpenter.sh',
      'ec2nodeclasses.karpenter.k8s.aws',
      'nodepools.joiner.sh',
      'nodeclasses.joiner.sh',
      'provisioners.karpenter.sh',
    ])
      expect(pairs).toContain(`${want}:CREATE+UPDATE`);
  });

  it('also asks for scale writes (nodepools/scale UPDATE) of both NodePool kinds', () => {
    const scaleRules = (webhook?.rules ?? []).filter((r) => r.resources.includes('nodepools/scale'));
    expect(scaleRules).toHaveLength(1);
    expect([...(scaleRules[0]?.apiGroups ?? [])].sort()).toEqual(['joiner.sh', 'karpenter.sh']);
    expect(scaleRules[0]?.operations).toEqual(['UPDATE']);
    const scale = (replicas: number) => ({ apiVersion: 'autoscaling/v1', kind: 'Scale', spec: { replicas } });
    expect(called('UPDATE', scale(4), scale(2))).toBe(true);
    expect(called('UPDATE', scale(2), scale(2))).toBe(false);
  });

  it('turns a scale write that changes replicas into ConfigurationChanged of the NodePool', () => {
    const scaleReview = (group: string, from: number, to: number) =>
      parseAdmissionReview({
        apiVersion: 'admission.k8s.io/v1',
        kind: 'AdmissionReview',
        request: {
          uid: 'review-2',
          kind: { group: 'autoscaling', version: 'v1', kind: 'Scale' },
          resource: { group, version: 'v1', resource: 'nodepools' },
          subResource: 'scale',
          name: 'general',
          operation: 'UPDATE',
          object: { metadata: { name: 'general' }, spec: { replicas: to } },
          oldObject: { metadata: { name: 'general' }, spec: { replicas: from } },
        },
      }).request;
    for (const [group, from, to] of [
      ['karpenter.sh', 2, 4],
      ['joiner.sh', 4, 1],
    ] as const)
      expect(admissionEvents(scaleReview(group, from, to))).toEqual([
        { detailType: 'ConfigurationChanged', detail: { group, kind: 'NodePool', name: 'general' } },
      ]);
    expect(admissionEvents(scaleReview('karpenter.sh', 3, 3))).toEqual([]);
    const other = {
      ...scaleReview('karpenter.sh', 1, 2),
      resource: { group: 'apps', version: 'v1', resource: 'deployments' },
    };
    expect(admissionEvents(other)).toEqual([]);
  });

  it('is called on create and on a spec change, not on a status update', () => {
    expect(called('CREATE', pool({ limits: { cpu: '10' } }), null)).toBe(true);
    expect(called('UPDATE', pool({ limits: { cpu: '20' } }), pool({ limits: { cpu: '10' } }))).toBe(true);
    expect(
      called('UPDATE', pool({ limits: { cpu: '10' } }, { conditions: [] }), pool({ limits: { cpu: '10' } })),
    ).toBe(false);
  });

  it('turns a NodePool creation into one ConfigurationChanged event with a valid detail', () => {
    const events = admissionEvents(review('karpenter.sh', 'nodepools', 'NodePool', 'CREATE', pool({}), null));
    expect(events).toEqual([
      {
        detailType: 'ConfigurationChanged',
        detail: { group: 'karpenter.sh', kind: 'NodePool', name: 'general' },
      },
    ]);
    const schema = JOINER_EVENT_DETAILS[DETAIL_TYPES.configurationChanged];
    expect(schema.safeParse(events[0].detail).success).toBe(true);
  });

  it('an EC2NodeClass spec change does too; a status-only update and a deletion do not', () => {
    const cls = (spec: Obj, status: Obj = {}) => ({ metadata: { name: 'general' }, spec, status });
    const changed = review(
      'karpenter.k8s.aws',
      'ec2nodeclasses',
      'EC2NodeClass',
      'UPDATE',
      cls({ role: 'b' }),
      cls({ role: 'a' }),
    );
    expect(admissionEvents(changed).map((e) => e.detailType)).toEqual(['ConfigurationChanged']);
    const status = review(
      'karpenter.k8s.aws',
      'ec2nodeclasses',
      'EC2NodeClass',
      'UPDATE',
      cls({ role: 'a' }, { x: 1 }),
      cls({ role: 'a' }),
    );
    expect(admissionEvents(status)).toEqual([]);
    const deleted = review(
      'karpenter.k8s.aws',
      'ec2nodeclasses',
      'EC2NodeClass',
      'DELETE',
      null,
      cls({ role: 'a' }),
    );
    expect(admissionEvents(deleted)).toEqual([]);
  });

  it('a karpenter.sh NodeClaim creation is asked for and becomes ConfigurationChanged of the NodeClaim (joiner refuses one made by hand at once); a joiner.sh one is not', () => {
    const pairs = (webhook?.rules ?? []).flatMap((r) =>
      r.apiGroups.flatMap((g) => r.resources.map((res) => `${res}.${g}:${r.operations.join('+')}`)),
    );
    expect(pairs).toContain('nodeclaims.karpenter.sh:CREATE');
    expect(pairs.filter((p) => p.startsWith('nodeclaims.joiner.sh'))).toEqual([]);
    const claim = { metadata: { name: 'general' }, spec: { requirements: [] } };
    expect(called('CREATE', claim, null)).toBe(true);
    const events = admissionEvents(review('karpenter.sh', 'nodeclaims', 'NodeClaim', 'CREATE', claim, null));
    expect(events).toEqual([
      {
        detailType: 'ConfigurationChanged',
        detail: { group: 'karpenter.sh', kind: 'NodeClaim', name: 'general' },
      },
    ]);
    expect(JOINER_EVENT_DETAILS[DETAIL_TYPES.configurationChanged].safeParse(events[0].detail).success).toBe(
      true,
    );
    expect(admissionEvents(review('joiner.sh', 'nodeclaims', 'NodeClaim', 'CREATE', claim, null))).toEqual(
      [],
    );
  });

  it('the provisioning queue takes ConfigurationChanged events', () => {
    const rule = EVENT_RULES.find(
      (r) =>
        r.queue === 'provisioning' &&
        ((r.pattern['detail-type'] as string[] | undefined) ?? []).includes('ConfigurationChanged'),
    );
    expect(rule?.pattern.source).toEqual([JOINER_EVENT_SOURCE]);
  });
});
