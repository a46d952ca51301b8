import { describe, expect, it } from 'vitest';
import { errorsOf, load } from '../config/helpers.js';

const container = (requests: object) => ({ name: 'c', image: 'pause', resources: { requests } });
const template = (spec: object = {}) => ({
  metadata: { labels: { app: 'x' } },
  spec: { containers: [container({ cpu: '500m' })], ...spec },
});

describe('workload documents', () => {
  it('expands controllers into pods named <name>-<index> in their namespace', () => {
    const loaded = load(
      {
        apiVersion: 'apps/v1',
        kind: 'Deployment',
        metadata: { name: 'web', namespace: 'shop' },
        spec: { replicas: 3, template: template() },
      },
      { apiVersion: 'apps/v1', kind: 'ReplicaSet', metadata: { name: 'rs' }, spec: { template: template() } },
      {
        apiVersion: 'batch/v1',
        kind: 'Job',
        metadata: { name: 'job' },
        spec: { parallelism: 4, completions: 2, template: template() },
      },
    );
    expect(errorsOf(loaded)).toEqual([]);
    expect(loaded.workloads.pods.map((p) => `${p.metadata.namespace}/${p.metadata.name}`)).toEqual([
      'shop/web-0',
      'shop/web-1',
      'shop/web-2',
      'default/rs-0',
      'default/job-0',
      'default/job-1',
    ]);
    expect(loaded.workloads.pods[0].metadata.labels).toEqual({ app: 'x' });
    expect(loaded.workloads.pods[0].status?.phase).toBe('Pending');
  });

  it('StatefulSets get one claim per volumeClaimTemplate and replica, mounted by the pod', () => {
    const loaded = load({
      apiVersion: 'apps/v1',
      kind: 'StatefulSet',
      metadata: { name: 'db' },
      spec: {
        replicas: 2,
        template: template(),
        volumeClaimTemplates: [
          {
            metadata: { name: 'data' },
            spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '10Gi' } } },
          },
        ],
      },
    });
    expect(errorsOf(loaded)).toEqual([]);
    expect(loaded.workloads.persistentVolumeClaims.map((c) => c.metadata.name)).toEqual([
      'data-db-0',
      'data-db-1',
    ]);
    expect(loaded.workloads.pods[1].spec.volumes).toEqual([
      { name: 'data', persistentVolumeClaim: { claimName: 'data-db-1' } },
    ]);
  });

  it('pods with spec.nodeName are running on that node; nodes, daemonsets, PVCs and PDBs are kept', () => {
    const loaded = load(
      {
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: { name: 'bound' },
        spec: { nodeName: 'n1', containers: [container({ cpu: 1 })] },
      },
      {
        apiVersion: 'v1',
        kind: 'Node',
        metadata: { name: 'n1', labels: { 'kubernetes.io/arch': 'amd64' } },
        spec: { taints: [{ key: 'a', effect: 'NoSchedule' }] },
        status: { allocatable: { cpu: '1930m', memory: '7244288Ki', pods: '29' } },
      },
      { apiVersion: 'apps/v1', kind: 'DaemonSet', metadata: { name: 'ds' }, spec: { template: template() } },
      {
        apiVersion: 'v1',
        kind: 'PersistentVolumeClaim',
        metadata: { name: 'c' },
        spec: { resources: { requests: { storage: '1Gi' } } },
      },
      {
        apiVersion: 'policy/v1',
        kind: 'PodDisruptionBudget',
        metadata: { name: 'pdb' },
        spec: { maxUnavailable: '50%' },
      },
    );
    expect(errorsOf(loaded)).toEqual([]);
    expect(loaded.workloads.pods[0]).toMatchObject({
      metadata: { namespace: 'default' },
      spec: { nodeName: 'n1' },
      status: { phase: 'Running' },
    });
    expect(loaded.workloads.nodes[0].status?.allocatable?.cpu).toBe('1930m');
    expect(loaded.workloads.daemonSets[0].metadata.namespace).toBe('default');
    expect(loaded.workloads.persistentVolumeClaims).toHaveLength(1);
    expect(loaded.workloads.podDisruptionBudgets).toHaveLength(1);
  });

  it('a bad quantity is an error with its path, and the document is left out', () => {
    const loaded = load(
      {
        apiVersion: 'apps/v1',
        kind: 'Deployment',
        metadata: { name: 'web' },
        spec: { template: template({ containers: [container({ memory: '1 GB' })] }) },
      },
      { apiVersion: 'v1', kind: 'Node', metadata: { name: 'n' }, status: { allocatable: { cpu: 'lots' } } },
    );
    expect(errorsOf(loaded).map((e) => `${e.document} ${e.path}`)).toEqual([
      'Deployment/web spec.template.spec.containers[0].resources.requests.memory',
      'Node/n status.allocatable.cpu',
    ]);
    expect(errorsOf(loaded)[0].message).toMatch(/invalid quantity "1 GB"/);
    expect(loaded.workloads.pods).toEqual([]);
    expect(loaded.documents.map((d) => d.ok)).toEqual([false, false]);
  });

  it('unknown kinds are skipped without a diagnostic', () => {
    const loaded = load(
      { apiVersion: 'v1', kind: 'Service', metadata: { name: 's' } },
      { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'n' } },
      { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' } },
    );
    expect(loaded.diagnostics).toEqual([]);
    expect(loaded.documents).toEqual([]);
  });

  it('a pod without containers is an error', () => {
    const loaded = load({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' }, spec: { containers: [] } });
    expect(errorsOf(loaded)).toEqual([expect.objectContaining({ path: 'spec.containers' })]);
  });
});
