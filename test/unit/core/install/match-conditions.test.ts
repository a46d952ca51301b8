import { run } from '@bufbuild/cel';
import { describe, expect, it } from 'vitest';
import { joinerManifests } from '../../../../functions/core/install/index.js';
import type { NodeClaim } from '../../../../functions/core/nodeclaim/nodeclaim.js';
import { transition } from '../../../../functions/core/nodeclaim/state-machine.js';
import { nodeClaimResource } from '../../../../functions/core/status/nodeclaim-resource.js';
import { pendingClaim } from '../lifecycle/fakes.js';

/** JSON -> CEL values (objects become maps, whole numbers ints), as the API server sees them. */
function toCel(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(toCel);
  if (value !== null && typeof value === 'object') {
    return new Map(Object.entries(value).map(([k, v]) => [k, toCel(v)]));
  }
  if (typeof value === 'number' && Number.isInteger(value)) return BigInt(value);
  return value;
}

interface Call {
  operation: 'CREATE' | 'UPDATE' | 'DELETE';
  /** The request's resource (plural); `pods` when not given. */
  resource?: string;
  object: unknown;
  oldObject: unknown;
}

const [configuration] = joinerManifests({ webhookUrl: 'https://hook.example/s3cr3t' }).filter(
  (m) => m.kind === 'ValidatingWebhookConfiguration',
);
const webhooks = configuration.webhooks as { name: string; matchConditions: { expression: string }[] }[];

/** Whether the API server would call the named webhook (all conditions true; errors skip it). */
function calls(name: string, call: Call): boolean {
  const webhook = webhooks.find((w) => w.name === `${name}.joiner.sh`);
  if (!webhook) throw new Error(`no webhook ${name}`);
  const vars = {
    object: toCel(call.object),
    oldObject: toCel(call.oldObject),
    request: toCel({
      operation: call.operation,
      resource: { group: '', version: 'v1', resource: call.resource ?? 'pods' },
    }),
  };
  return webhook.matchConditions.every((c) => run(c.expression, vars as never) === true);
}

const pod = (conditions: object[], extra: object = {}) => ({
  metadata: { name: 'p', namespace: 'default', ...extra },
  spec: { containers: [] },
  status: { conditions },
});
const unschedulable = { type: 'PodScheduled', status: 'False', reason: 'Unschedulable' };
const ready = { type: 'Ready', status: 'True' };
const notReady = { type: 'Ready', status: 'False' };

describe('webhook match conditions', () => {
  it('calls for pod status updates that mark the pod Unschedulable, and only those', () => {
    expect(
      calls('pod-unschedulable', { operation: 'UPDATE', object: pod([unschedulable]), oldObject: pod([]) }),
    ).toBe(true);
    const scheduled = pod([{ type: 'PodScheduled', status: 'True' }]);
    expect(calls('pod-unschedulable', { operation: 'UPDATE', object: scheduled, oldObject: pod([]) })).toBe(
      false,
    );
    const otherReason = pod([{ type: 'PodScheduled', status: 'False', reason: 'SchedulingGated' }]);
    expect(calls('pod-unschedulable', { operation: 'UPDATE', object: otherReason, oldObject: pod([]) })).toBe(
      false,
    );
    expect(
      calls('pod-unschedulable', { operation: 'UPDATE', object: { metadata: {} }, oldObject: pod([]) }),
    ).toBe(false);
  });

  it('does not call again when the scheduler rewrites the message of a pod already Unschedulable', () => {
    const marked = (message: string) => pod([{ ...unschedulable, message }]);
    expect(
      calls('pod-unschedulable', {
        operation: 'UPDATE',
        object: marked('0/4 nodes are available'),
        oldObject: marked('0/3 nodes are available'),
      }),
    ).toBe(false);
    const wasGated = pod([{ type: 'PodScheduled', status: 'False', reason: 'SchedulingGated' }]);
    expect(
      calls('pod-unschedulable', { operation: 'UPDATE', object: marked('0/3'), oldObject: wasGated }),
    ).toBe(true);
    expect(calls('pod-unschedulable', { operation: 'UPDATE', object: marked('0/3'), oldObject: null })).toBe(
      true,
    );
  });

  it('calls for node creations and Ready transitions, not for heartbeats of a Ready node', () => {
    const node = (conditions: object[]) => ({ metadata: { name: 'n' }, status: { conditions } });
    expect(calls('node', { operation: 'CREATE', object: node([]), oldObject: null })).toBe(true);
    expect(calls('node', { operation: 'UPDATE', object: node([ready]), oldObject: node([notReady]) })).toBe(
      true,
    );
    expect(calls('node', { operation: 'UPDATE', object: node([ready]), oldObject: node([]) })).toBe(true);
    expect(calls('node', { operation: 'UPDATE', object: node([ready]), oldObject: node([ready]) })).toBe(
      false,
    );
    expect(calls('node', { operation: 'UPDATE', object: node([notReady]), oldObject: node([ready]) })).toBe(
      false,
    );
  });

  it('calls when a Multus pod turns Ready, not for other pods or repeated Ready updates', () => {
    const multus = (conditions: object[]) => pod(conditions, { labels: { app: 'multus' } });
    expect(
      calls('multus-pod-ready', { operation: 'UPDATE', object: multus([ready]), oldObject: multus([]) }),
    ).toBe(true);
    expect(
      calls('multus-pod-ready', { operation: 'UPDATE', object: multus([ready]), oldObject: multus([ready]) }),
    ).toBe(false);
    expect(calls('multus-pod-ready', { operation: 'UPDATE', object: pod([ready]), oldObject: pod([]) })).toBe(
      false,
    );
    const other = pod([ready], { labels: { app: 'web' } });
    expect(calls('multus-pod-ready', { operation: 'UPDATE', object: other, oldObject: pod([]) })).toBe(false);
  });

  it('calls for deletions of bound pods that no daemonset owns', () => {
    const bound = { metadata: { name: 'p' }, spec: { nodeName: 'ip-10-0-2-1' } };
    expect(calls('pod-deleted', { operation: 'DELETE', object: null, oldObject: bound })).toBe(true);
    const pending = { metadata: { name: 'p' }, spec: {} };
    expect(calls('pod-deleted', { operation: 'DELETE', object: null, oldObject: pending })).toBe(false);
    const daemon = {
      metadata: {
        name: 'p',
        ownerReferences: [{ kind: 'DaemonSet', name: 'multus', apiVersion: 'apps/v1' }],
      },
      spec: { nodeName: 'ip-10-0-2-1' },
    };
    expect(calls('pod-deleted', { operation: 'DELETE', object: null, oldObject: daemon })).toBe(false);
  });

  it("calls once per pod deleted gracefully: not for the kubelet's final DELETE, unless a StatefulSet owns it", () => {
    const running = (extra: object) => ({
      metadata: { name: 'p', ...extra },
      spec: { nodeName: 'ip-10-0-2-1' },
      status: { phase: 'Running', conditions: [ready] },
    });
    const replicaSet = { ownerReferences: [{ kind: 'ReplicaSet', name: 'web-1', apiVersion: 'apps/v1' }] };
    const statefulSet = { ownerReferences: [{ kind: 'StatefulSet', name: 'db', apiVersion: 'apps/v1' }] };
    const terminating = { deletionTimestamp: '2026-01-01T00:00:00Z' };
    expect(calls('pod-deleted', { operation: 'DELETE', object: null, oldObject: running(replicaSet) })).toBe(
      true,
    );
    expect(
      calls('pod-deleted', {
        operation: 'DELETE',
        object: null,
        oldObject: running({ ...replicaSet, ...terminating }),
      }),
    ).toBe(false);
    expect(
      calls('pod-deleted', {
        operation: 'DELETE',
        object: null,
        oldObject: running({ ...statefulSet, ...terminating }),
      }),
    ).toBe(true);
  });

  it('does not call for the deletion of a pod the eviction subresource evicted', () => {
    const statefulPod = (conditions: object[]) => ({
      // The kubelet's final DELETE of a StatefulSet pod (the one kind still called then).
      metadata: {
        name: 'p',
        deletionTimestamp: '2026-01-01T00:00:00Z',
        ownerReferences: [{ kind: 'StatefulSet', name: 'db', apiVersion: 'apps/v1' }],
      },
      spec: { nodeName: 'ip-10-0-2-1' },
      status: { phase: 'Running', conditions },
    });
    const evicted = { type: 'DisruptionTarget', status: 'True', reason: 'EvictionByEvictionAPI' };
    expect(
      calls('pod-deleted', { operation: 'DELETE', object: null, oldObject: statefulPod([ready, evicted]) }),
    ).toBe(false);
    // Deleted otherwise (a ReplicaSet scaling down, a preemption, the taint manager): still called.
    expect(calls('pod-deleted', { operation: 'DELETE', object: null, oldObject: statefulPod([ready]) })).toBe(
      true,
    );
    const preempted = { type: 'DisruptionTarget', status: 'True', reason: 'PreemptionByScheduler' };
    expect(
      calls('pod-deleted', { operation: 'DELETE', object: null, oldObject: statefulPod([preempted]) }),
    ).toBe(true);
    const noReason = { type: 'DisruptionTarget', status: 'True' };
    expect(
      calls('pod-deleted', { operation: 'DELETE', object: null, oldObject: statefulPod([noReason]) }),
    ).toBe(true);
  });

  it("calls for deletions of joiner's NodeClaims and of Nodes with joiner's nodeclaim label only", () => {
    const claim = { metadata: { name: 'default-abc12' } };
    expect(
      calls('node-deleted', { operation: 'DELETE', resource: 'nodeclaims', object: null, oldObject: claim }),
    ).toBe(true);
    const ours = { metadata: { name: 'ip-10-0-2-1', labels: { 'joiner.sh/nodeclaim': 'default-abc12' } } };
    expect(
      calls('node-deleted', { operation: 'DELETE', resource: 'nodes', object: null, oldObject: ours }),
    ).toBe(true);
    const theirs = { metadata: { name: 'ip-10-0-2-2', labels: { 'karpenter.sh/nodepool': 'general' } } };
    expect(
      calls('node-deleted', { operation: 'DELETE', resource: 'nodes', object: null, oldObject: theirs }),
    ).toBe(false);
    const bare = { metadata: { name: 'ip-10-0-2-3' } };
    expect(
      calls('node-deleted', { operation: 'DELETE', resource: 'nodes', object: null, oldObject: bare }),
    ).toBe(false);
  });

  it('leaves out the deletion of a NodeClaim resource whose claim is terminating (joiner deletes it itself)', () => {
    const at = 1_767_225_600_000;
    const failure = { reason: 'Interrupted', message: 'AWS Health scheduled change' };
    const launched = transition(pendingClaim('default-abc12', at), 'Launched', at + 1_000, {
      instance: { instanceId: 'i-0a', instanceType: 'c5.large', zone: 'us-west-2a', capacityType: 'spot' },
    });
    const registered = transition(launched, 'Registered', at + 2_000, { nodeName: 'ip-1' });
    const initialized = transition(registered, 'Initialized', at + 3_000);
    const draining = transition(initialized, 'Draining', at + 4_000, {
      disruption: {
        cause: 'interrupted',
        message: failure.message,
        forceful: true,
        startedAt: at + 4_000,
        phase: 'replacing',
        replaceBy: at + 600_000,
      },
    });
    const terminating = transition(draining, 'Terminating', at + 5_000, { failure });
    const deleted = (claim: NodeClaim) =>
      calls('node-deleted', {
        operation: 'DELETE',
        resource: 'nodeclaims',
        object: null,
        oldObject: JSON.parse(JSON.stringify(nodeClaimResource(claim))),
      });
    for (const live of [launched, registered, initialized, draining]) expect(deleted(live)).toBe(true);
    expect(deleted(terminating)).toBe(false);
    // A never-registered claim retired (its Registered condition False) is terminating too.
    expect(deleted(transition(launched, 'Terminating', at + 5_000, { failure }))).toBe(false);
  });
});
