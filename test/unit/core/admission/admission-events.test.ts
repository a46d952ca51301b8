import { describe, expect, it } from 'vitest';
import { admissionEvents } from '../../../../functions/core/admission/admission-events.js';
import {
  type AdmissionRequest,
  parseAdmissionReview,
} from '../../../../functions/core/admission/admission-review.js';
import { JOINER_EVENT_DETAILS } from '../../../../functions/core/events/joiner-events.js';

type Obj = Record<string, unknown>;

function request(fields: {
  resource: string;
  subResource?: string;
  operation: AdmissionRequest['operation'];
  object?: Obj | null;
  oldObject?: Obj | null;
}): AdmissionRequest {
  const meta = (fields.object ?? fields.oldObject)?.metadata as Obj | undefined;
  return parseAdmissionReview({
    apiVersion: 'admission.k8s.io/v1',
    kind: 'AdmissionReview',
    request: {
      uid: 'review-1',
      kind: { group: '', version: 'v1', kind: fields.resource === 'pods' ? 'Pod' : 'Node' },
      resource: { group: '', version: 'v1', resource: fields.resource },
      ...(fields.subResource ? { subResource: fields.subResource } : {}),
      name: meta?.name,
      namespace: meta?.namespace,
      operation: fields.operation,
      object: fields.object ?? null,
      oldObject: fields.oldObject ?? null,
    },
  }).request;
}

const condition = (type: string, status: string, reason?: string) => ({
  type,
  status,
  ...(reason ? { reason } : {}),
});

function pod(opts: { nodeName?: string; conditions?: Obj[]; labels?: Record<string, string> } = {}): Obj {
  return {
    metadata: {
      name: 'web-1',
      namespace: 'shop',
      uid: 'uid-web-1',
      ...(opts.labels ? { labels: opts.labels } : {}),
    },
    spec: { containers: [{ name: 'c' }], ...(opts.nodeName ? { nodeName: opts.nodeName } : {}) },
    status: { phase: 'Pending', conditions: opts.conditions ?? [] },
  };
}

function node(ready: boolean | undefined, labels: Record<string, string> = {}): Obj {
  return {
    metadata: { name: 'ip-10-0-1-5.ec2.internal', labels },
    spec: { providerID: 'aws:///us-west-2a/i-0abc' },
    status: { conditions: ready === undefined ? [] : [condition('Ready', ready ? 'True' : 'False')] },
  };
}

/** Every event must match the detail schema its readers use. */
function expectValidDetails(events: ReturnType<typeof admissionEvents>): void {
  for (const event of events) {
    const schema = JOINER_EVENT_DETAILS[event.detailType as keyof typeof JOINER_EVENT_DETAILS];
    expect(schema, event.detailType).toBeDefined();
    expect(schema.safeParse(event.detail).success).toBe(true);
  }
}

describe('admissionEvents', () => {
  it('turns a pod status update to Unschedulable into PodUnschedulable', () => {
    const unschedulable = pod({ conditions: [condition('PodScheduled', 'False', 'Unschedulable')] });
    const events = admissionEvents(
      request({
        resource: 'pods',
        subResource: 'status',
        operation: 'UPDATE',
        object: unschedulable,
        oldObject: pod(),
      }),
      1_000,
    );
    expect(events).toEqual([
      {
        detailType: 'PodUnschedulable',
        detail: { namespace: 'shop', name: 'web-1', uid: 'uid-web-1' },
        time: 1_000,
      },
    ]);
    expectValidDetails(events);
  });

  it('gives nothing for a rewrite of a pod that was already Unschedulable (a new message)', () => {
    const marked = (message: string) =>
      pod({ conditions: [{ ...condition('PodScheduled', 'False', 'Unschedulable'), message }] });
    const rewrite = request({
      resource: 'pods',
      subResource: 'status',
      operation: 'UPDATE',
      object: marked('0/4 nodes are available'),
      oldObject: marked('0/3 nodes are available'),
    });
    expect(admissionEvents(rewrite)).toEqual([]);
    const gated = pod({ conditions: [condition('PodScheduled', 'False', 'SchedulingGated')] });
    const ungated = request({
      resource: 'pods',
      subResource: 'status',
      operation: 'UPDATE',
      object: marked('0/3 nodes are available'),
      oldObject: gated,
    });
    expect(admissionEvents(ungated).map((e) => e.detailType)).toEqual(['PodUnschedulable']);
  });

  it('ignores PodScheduled False for other reasons and pods already bound', () => {
    const gated = pod({ conditions: [condition('PodScheduled', 'False', 'SchedulingGated')] });
    const bound = pod({ nodeName: 'n1', conditions: [condition('PodScheduled', 'False', 'Unschedulable')] });
    for (const object of [gated, bound]) {
      expect(
        admissionEvents(request({ resource: 'pods', subResource: 'status', operation: 'UPDATE', object })),
      ).toEqual([]);
    }
  });

  it('turns a node CREATE into NodeRegistered with the provider id and ownership labels only', () => {
    const created = node(false, { 'karpenter.sh/nodepool': 'default', 'kubernetes.io/os': 'linux' });
    const events = admissionEvents(request({ resource: 'nodes', operation: 'CREATE', object: created }));
    expect(events).toEqual([
      {
        detailType: 'NodeRegistered',
        detail: {
          nodeName: 'ip-10-0-1-5.ec2.internal',
          providerId: 'aws:///us-west-2a/i-0abc',
          labels: { 'karpenter.sh/nodepool': 'default' },
        },
      },
    ]);
    expectValidDetails(events);
  });

  it('turns a Ready False -> True status update into NodeReady, and not True -> True', () => {
    const ready = admissionEvents(
      request({
        resource: 'nodes',
        subResource: 'status',
        operation: 'UPDATE',
        object: node(true),
        oldObject: node(false),
      }),
    );
    expect(ready.map((e) => e.detailType)).toEqual(['NodeReady']);
    expectValidDetails(ready);
    const still = admissionEvents(
      request({
        resource: 'nodes',
        subResource: 'status',
        operation: 'UPDATE',
        object: node(true),
        oldObject: node(true),
      }),
    );
    expect(still).toEqual([]);
  });

  it('reports a node created already Ready as registered and ready', () => {
    const events = admissionEvents(request({ resource: 'nodes', operation: 'CREATE', object: node(true) }));
    expect(events.map((e) => e.detailType)).toEqual(['NodeRegistered', 'NodeReady']);
  });

  it('turns the Multus pod becoming Ready into PodReady with its node', () => {
    const multus = (ready: boolean) =>
      pod({
        nodeName: 'n1',
        labels: { app: 'multus' },
        conditions: [condition('Ready', ready ? 'True' : 'False')],
      });
    const events = admissionEvents(
      request({
        resource: 'pods',
        subResource: 'status',
        operation: 'UPDATE',
        object: multus(true),
        oldObject: multus(false),
      }),
    );
    expect(events).toEqual([
      {
        detailType: 'PodReady',
        detail: { namespace: 'shop', name: 'web-1', uid: 'uid-web-1', nodeName: 'n1' },
      },
    ]);
    expectValidDetails(events);
  });

  it('does not report other pods turning Ready', () => {
    const other = (ready: boolean) =>
      pod({
        nodeName: 'n1',
        labels: { app: 'web' },
        conditions: [condition('Ready', ready ? 'True' : 'False')],
      });
    expect(
      admissionEvents(
        request({
          resource: 'pods',
          subResource: 'status',
          operation: 'UPDATE',
          object: other(true),
          oldObject: other(false),
        }),
      ),
    ).toEqual([]);
  });

  it('turns the DELETE of a bound pod into PodGone, and ignores unbound ones', () => {
    const gone = admissionEvents(
      request({ resource: 'pods', operation: 'DELETE', oldObject: pod({ nodeName: 'n1' }) }),
    );
    expect(gone).toEqual([
      {
        detailType: 'PodGone',
        detail: { namespace: 'shop', name: 'web-1', uid: 'uid-web-1', nodeName: 'n1' },
      },
    ]);
    expectValidDetails(gone);
    expect(admissionEvents(request({ resource: 'pods', operation: 'DELETE', oldObject: pod() }))).toEqual([]);
  });

  it('yields nothing for resources joiner does not watch', () => {
    const review = request({
      resource: 'configmaps',
      operation: 'CREATE',
      object: { metadata: { name: 'x' } },
    });
    expect(admissionEvents(review)).toEqual([]);
  });
});

describe('parseAdmissionReview', () => {
  it('names the field that is wrong', () => {
    expect(() =>
      parseAdmissionReview({ apiVersion: 'admission.k8s.io/v1beta1', kind: 'AdmissionReview' }),
    ).toThrow(/not an AdmissionReview v1: apiVersion/);
    expect(() =>
      parseAdmissionReview({
        apiVersion: 'admission.k8s.io/v1',
        kind: 'AdmissionReview',
        request: { uid: '' },
      }),
    ).toThrow(/request\.uid/);
  });
});
