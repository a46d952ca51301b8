import { describe, expect, it } from 'vitest';
import {
  ANNOTATION_DO_NOT_CONSOLIDATE,
  ANNOTATION_DO_NOT_DISRUPT,
  ANNOTATION_DO_NOT_EVICT,
  blockingDoNotDisrupt,
  doNotDisrupt,
  evictionGroups,
  hasDoNotDisrupt,
  isCriticalPod,
  isDrainable,
  isEmptyNode,
  isMirrorPod,
  isReschedulable,
  isStuckTerminating,
  isTerminalPod,
  isTerminatingPod,
  nodeHasDoNotDisrupt,
  toleratesDisruptedTaint,
} from '../../../../functions/core/disruption/pod-policy.js';
import type { Node, Pod, Toleration } from '../../../../functions/core/model/kube-objects.js';

const owner = (kind: string, apiVersion = 'apps/v1') => ({
  apiVersion,
  kind,
  name: `${kind.toLowerCase()}-1`,
});

function pod(
  name: string,
  opts: Partial<{
    owner: string;
    phase: string;
    deleting: string;
    priorityClassName: string;
    tolerations: Toleration[];
    annotations: Record<string, string>;
  }> = {},
): Pod {
  return {
    metadata: {
      name,
      namespace: 'default',
      annotations: opts.annotations,
      deletionTimestamp: opts.deleting,
      ownerReferences: opts.owner ? [owner(opts.owner, opts.owner === 'Node' ? 'v1' : 'apps/v1')] : undefined,
    },
    spec: {
      containers: [{ name: 'c' }],
      priorityClassName: opts.priorityClassName,
      tolerations: opts.tolerations,
    },
    status: { phase: opts.phase ?? 'Running' },
  };
}

const NOW = Date.parse('2024-01-03T12:00:00Z');
const app = pod('app', { owner: 'ReplicaSet' });
const daemon = pod('ds', { owner: 'DaemonSet' });
const mirrorByAnnotation = pod('kube-proxy', { annotations: { 'kubernetes.io/config.mirror': 'abc' } });
const mirrorByOwner = pod('etcd', { owner: 'Node' });
const succeeded = pod('job', { phase: 'Succeeded' });
const failed = pod('job-2', { phase: 'Failed' });
const terminating = pod('leaving', { owner: 'ReplicaSet', deleting: '2024-01-03T11:59:30Z' });
const terminatingSts = pod('db-0', { owner: 'StatefulSet', deleting: '2024-01-03T11:59:30Z' });
const critical = pod('coredns', { owner: 'ReplicaSet', priorityClassName: 'system-cluster-critical' });
const criticalDaemon = pod('cni', { owner: 'DaemonSet', priorityClassName: 'system-node-critical' });
const disruptedTaint = { key: 'karpenter.sh/disrupted', effect: 'NoSchedule' } as const;

describe('pod kinds', () => {
  it('tells mirror pods by annotation or Node owner', () => {
    expect(isMirrorPod(mirrorByAnnotation)).toBe(true);
    expect(isMirrorPod(mirrorByOwner)).toBe(true);
    expect(isMirrorPod(app)).toBe(false);
    expect(isMirrorPod(daemon)).toBe(false);
  });

  it('tells terminal and terminating pods', () => {
    expect([succeeded, failed].map(isTerminalPod)).toEqual([true, true]);
    expect(isTerminalPod(app)).toBe(false);
    expect(isTerminalPod(pod('p', { phase: 'Pending' }))).toBe(false);
    expect(isTerminatingPod(terminating)).toBe(true);
    expect(isTerminatingPod(app)).toBe(false);
  });

  it('treats a pod as stuck terminating a minute past its deletion timestamp', () => {
    const since = (ms: number) => pod('p', { deleting: new Date(NOW - ms).toISOString() });
    expect(isStuckTerminating(since(30_000), NOW)).toBe(false);
    expect(isStuckTerminating(since(60_000), NOW)).toBe(false);
    expect(isStuckTerminating(since(61_000), NOW)).toBe(true);
    expect(isStuckTerminating(app, NOW)).toBe(false);
  });

  it('tells critical pods by priority class name only', () => {
    expect(isCriticalPod(critical)).toBe(true);
    expect(isCriticalPod(criticalDaemon)).toBe(true);
    expect(isCriticalPod(pod('p', { priorityClassName: 'high-priority' }))).toBe(false);
    expect(isCriticalPod(app)).toBe(false);
  });

  it('tells pods that tolerate the disrupted taint', () => {
    const tolerating = (t: Toleration) => toleratesDisruptedTaint(pod('t', { tolerations: [t] }));
    expect(tolerating({ operator: 'Exists' })).toBe(true);
    expect(tolerating({ key: disruptedTaint.key, operator: 'Exists' })).toBe(true);
    expect(tolerating({ key: disruptedTaint.key, operator: 'Exists', effect: 'NoSchedule' })).toBe(true);
    expect(tolerating({ key: disruptedTaint.key, operator: 'Equal', value: '' })).toBe(true);
    expect(tolerating({ key: disruptedTaint.key, operator: 'Exists', effect: 'NoExecute' })).toBe(false);
    expect(tolerating({ key: disruptedTaint.key, operator: 'Equal', value: 'true' })).toBe(false);
    expect(tolerating({ key: 'node.kubernetes.io/unreachable', operator: 'Exists' })).toBe(false);
    expect(toleratesDisruptedTaint(app)).toBe(false);
  });
});

describe('isReschedulable', () => {
  it('is true for a running workload pod only', () => {
    expect(isReschedulable(app)).toBe(true);
    expect(isReschedulable(critical)).toBe(true);
    for (const p of [daemon, mirrorByAnnotation, mirrorByOwner, succeeded, failed, terminating]) {
      expect(isReschedulable(p), p.metadata.name).toBe(false);
    }
  });

  it('keeps room for a terminating StatefulSet pod, as Karpenter does', () => {
    expect(isReschedulable(terminatingSts)).toBe(true);
  });
});

describe('isDrainable and evictionGroups', () => {
  it('drains what does not tolerate the disrupted taint, is no mirror and has not finished', () => {
    for (const p of [app, daemon, critical, criticalDaemon, terminating]) {
      expect(isDrainable(p), p.metadata.name).toBe(true);
    }
    const tolerant = pod('t', { owner: 'DaemonSet', tolerations: [{ operator: 'Exists' }] });
    for (const p of [tolerant, mirrorByAnnotation, mirrorByOwner, succeeded, failed]) {
      expect(isDrainable(p), p.metadata.name).toBe(false);
    }
  });

  it('keeps do-not-disrupt pods drainable (the drain waits for them)', () => {
    expect(isDrainable(pod('p', { annotations: { [ANNOTATION_DO_NOT_DISRUPT]: 'true' } }))).toBe(true);
  });

  it("orders groups as Karpenter's terminator, dropping empty ones and terminating pods", () => {
    const app2 = pod('app-2', { owner: 'Deployment' });
    const names = (pods: Pod[]) => evictionGroups(pods).map((g) => g.map((p) => p.metadata.name));
    expect(
      names([criticalDaemon, critical, daemon, app, terminating, mirrorByOwner, succeeded, app2]),
    ).toEqual([['app', 'app-2'], ['ds'], ['coredns'], ['cni']]);
    expect(names([criticalDaemon, daemon])).toEqual([['ds'], ['cni']]);
    expect(names([terminating, mirrorByAnnotation])).toEqual([]);
  });
});

describe('do-not-disrupt', () => {
  const annotated = (annotations: Record<string, string>) => pod('p', { annotations });

  it('reads the v1 and v1alpha5 pod annotations, value "true" only', () => {
    expect(hasDoNotDisrupt(annotated({ [ANNOTATION_DO_NOT_DISRUPT]: 'true' }), NOW)).toBe(true);
    expect(hasDoNotDisrupt(annotated({ [ANNOTATION_DO_NOT_EVICT]: 'true' }), NOW)).toBe(true);
    expect(hasDoNotDisrupt(annotated({ [ANNOTATION_DO_NOT_DISRUPT]: 'false' }), NOW)).toBe(false);
    expect(hasDoNotDisrupt(annotated({ [ANNOTATION_DO_NOT_CONSOLIDATE]: 'true' }), NOW)).toBe(false);
    expect(hasDoNotDisrupt(app, NOW)).toBe(false);
  });

  it('a duration value protects the pod for that long after it started, as Karpenter reads it', () => {
    const started = (value: string, startTime?: string) => {
      const p = annotated({ [ANNOTATION_DO_NOT_DISRUPT]: value });
      return { ...p, status: { ...p.status, ...(startTime ? { startTime } : {}) } };
    };
    const tenMinutesAgo = new Date(NOW - 10 * 60_000).toISOString();
    expect(doNotDisrupt(started('30m', tenMinutesAgo), NOW)).toEqual({
      active: true,
      until: NOW + 20 * 60_000,
    });
    expect(doNotDisrupt(started('5m', tenMinutesAgo), NOW)).toEqual({ active: false });
    expect(hasDoNotDisrupt(started('1h30m', tenMinutesAgo), NOW)).toBe(true);
    // No start time yet: protected (fail safe).
    expect(hasDoNotDisrupt(started('5m'), NOW)).toBe(true);
    expect(doNotDisrupt(started('0s', tenMinutesAgo), NOW)).toEqual({
      active: false,
      invalid: 'duration "0s" must be positive',
    });
    expect(doNotDisrupt(started('-5m', tenMinutesAgo), NOW).invalid).toBe('duration "-5m" must be positive');
    expect(doNotDisrupt(started('soon', tenMinutesAgo), NOW)).toEqual({
      active: false,
      invalid: 'failed to parse "soon" as a duration',
    });
    expect(doNotDisrupt(started('300', tenMinutesAgo), NOW).invalid).toMatch(/failed to parse/);
  });

  it('reads the v1 and v1alpha5 node annotations', () => {
    const node = (annotations?: Record<string, string>): Node => ({ metadata: { name: 'n', annotations } });
    expect(nodeHasDoNotDisrupt(node({ [ANNOTATION_DO_NOT_DISRUPT]: 'true' }))).toBe(true);
    expect(nodeHasDoNotDisrupt(node({ [ANNOTATION_DO_NOT_CONSOLIDATE]: 'true' }))).toBe(true);
    expect(nodeHasDoNotDisrupt(node({ [ANNOTATION_DO_NOT_EVICT]: 'true' }))).toBe(false);
    expect(nodeHasDoNotDisrupt(node({ [ANNOTATION_DO_NOT_DISRUPT]: 'yes' }))).toBe(false);
    expect(nodeHasDoNotDisrupt(node())).toBe(false);
  });

  it('is blocked by the first live pod with the annotation, DaemonSet pods included', () => {
    const pinned = { [ANNOTATION_DO_NOT_DISRUPT]: 'true' };
    const finished = pod('done', { phase: 'Succeeded', annotations: pinned });
    const leaving = pod('leaving', { deleting: '2024-01-03T11:59:30Z', annotations: pinned });
    const pinnedDaemon = pod('agent', { owner: 'DaemonSet', annotations: pinned });
    const pinnedApp = pod('batch', { owner: 'Job', annotations: { [ANNOTATION_DO_NOT_EVICT]: 'true' } });
    expect(blockingDoNotDisrupt([app, finished, leaving], NOW)).toBeUndefined();
    expect(blockingDoNotDisrupt([app, finished, leaving, pinnedDaemon, pinnedApp], NOW)).toBe(pinnedDaemon);
    expect(blockingDoNotDisrupt([app, pinnedApp], NOW)).toBe(pinnedApp);
  });
});

describe('isEmptyNode', () => {
  it('is empty with only DaemonSet, mirror, finished or terminating pods', () => {
    expect(isEmptyNode([])).toBe(true);
    expect(
      isEmptyNode([
        daemon,
        criticalDaemon,
        mirrorByAnnotation,
        mirrorByOwner,
        succeeded,
        failed,
        terminating,
      ]),
    ).toBe(true);
  });

  it('is not empty with a workload pod or a terminating StatefulSet pod', () => {
    expect(isEmptyNode([daemon, app])).toBe(false);
    expect(isEmptyNode([daemon, pod('p', { phase: 'Pending' })])).toBe(false);
    expect(isEmptyNode([daemon, terminatingSts])).toBe(false);
  });
});
