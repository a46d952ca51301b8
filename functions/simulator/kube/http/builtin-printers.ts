/**
 * The columns the API server prints for built-in kinds (what `kubectl get` shows, `-o wide` adds
 * the priority-1 columns), after Kubernetes' own table printers.
 */
import type { KubeObject } from '../api/object-store.js';
import { ageOf } from './human-duration.js';

/** One column: its definition and how a row's cell is computed. */
export interface Column {
  readonly name: string;
  readonly type: 'string' | 'integer' | 'number' | 'boolean' | 'date';
  /** 0: always shown; 1: only with `-o wide`. */
  readonly priority: 0 | 1;
  readonly description?: string;
  readonly format?: string;
  readonly cell: (o: KubeObject, nowMs: number) => unknown;
}

type Any = Record<string, any>;
const col = (
  name: string,
  cell: Column['cell'],
  priority: 0 | 1 = 0,
  type: Column['type'] = 'string',
): Column => ({
  name,
  type,
  priority,
  cell,
  ...(name === 'Name' ? { format: 'name' } : {}),
});
const name = col('Name', (o) => o.metadata.name);
const age = col('Age', (o, now) => ageOf(o.metadata.creationTimestamp, now));
const spec = (o: KubeObject): Any => (o.spec ?? {}) as Any;
const status = (o: KubeObject): Any => (o.status ?? {}) as Any;
const none = (v: unknown): string => (v === undefined || v === null || v === '' ? '<none>' : String(v));

function podStatus(o: KubeObject): string {
  if (o.metadata.deletionTimestamp) return 'Terminating';
  const s = status(o);
  const waiting = (s.containerStatuses ?? []).map((c: Any) => c.state?.waiting?.reason).find(Boolean);
  if (waiting) return waiting;
  const gates = spec(o).schedulingGates ?? [];
  if (s.phase === 'Pending' && gates.length > 0) return 'SchedulingGated';
  return s.reason ?? s.phase ?? 'Pending';
}

function nodeStatus(o: KubeObject): string {
  const ready = (status(o).conditions ?? []).find((c: Any) => c.type === 'Ready');
  const parts = [ready?.status === 'True' ? 'Ready' : ready ? 'NotReady' : 'Unknown'];
  if (spec(o).unschedulable) parts.push('SchedulingDisabled');
  return parts.join(',');
}

function nodeRoles(o: KubeObject): string {
  const roles = Object.keys(o.metadata.labels ?? {})
    .filter((k) => k.startsWith('node-role.kubernetes.io/'))
    .map((k) => k.slice('node-role.kubernetes.io/'.length));
  return roles.length > 0 ? roles.sort().join(',') : '<none>';
}

const address = (o: KubeObject, type: string): string =>
  none((status(o).addresses ?? []).find((a: Any) => a.type === type)?.address);

function selectorText(selector: Any | undefined): string {
  const labels = Object.entries(selector?.matchLabels ?? {}).map(([k, v]) => `${k}=${v}`);
  return labels.length > 0 ? labels.join(',') : '<none>';
}

const containers = (o: KubeObject): Any[] => spec(o).template?.spec?.containers ?? [];

/** Columns of built-in kinds by `group/Kind` ('' group for core). */
export const BUILTIN_COLUMNS: Readonly<Record<string, readonly Column[]>> = {
  '/Pod': [
    name,
    col('Ready', (o) => {
      const all = spec(o).containers?.length ?? 0;
      const ready = (status(o).containerStatuses ?? []).filter((c: Any) => c.ready).length;
      return `${ready}/${all}`;
    }),
    col('Status', podStatus),
    col(
      'Restarts',
      (o) => (status(o).containerStatuses ?? []).reduce((n: number, c: Any) => n + (c.restartCount ?? 0), 0),
      0,
      'string',
    ),
    age,
    col('IP', (o) => none(status(o).podIP), 1),
    col('Node', (o) => none(spec(o).nodeName), 1),
    col('Nominated Node', (o) => none(status(o).nominatedNodeName), 1),
    col(
      'Readiness Gates',
      (o) => none((spec(o).readinessGates ?? []).map((g: Any) => g.conditionType).join(',')),
      1,
    ),
  ],
  '/Node': [
    name,
    col('Status', nodeStatus),
    col('Roles', nodeRoles),
    age,
    col('Version', (o) => none(status(o).nodeInfo?.kubeletVersion)),
    col('Internal-IP', (o) => address(o, 'InternalIP'), 1),
    col('External-IP', (o) => address(o, 'ExternalIP'), 1),
    col('OS-Image', (o) => none(status(o).nodeInfo?.osImage), 1),
    col('Kernel-Version', (o) => none(status(o).nodeInfo?.kernelVersion), 1),
    col('Container-Runtime', (o) => none(status(o).nodeInfo?.containerRuntimeVersion), 1),
  ],
  '/Namespace': [name, col('Status', (o) => status(o).phase ?? 'Active'), age],
  '/Event': [
    col('Last Seen', (o, now) => ageOf(o.lastTimestamp ?? o.eventTime ?? o.metadata.creationTimestamp, now)),
    col('Type', (o) => o.type ?? 'Normal'),
    col('Reason', (o) => none(o.reason)),
    col('Object', (o) => {
      const ref = (o.involvedObject ?? {}) as Any;
      return `${String(ref.kind ?? '').toLowerCase()}/${ref.name ?? ''}`;
    }),
    col('Subobject', (o) => ((o.involvedObject as Any)?.fieldPath as string | undefined) ?? '', 1),
    col('Source', (o) => none((o.source as Any)?.component ?? o.reportingComponent), 1),
    col('Message', (o) => o.message ?? ''),
    col('First Seen', (o, now) => ageOf(o.firstTimestamp ?? o.metadata.creationTimestamp, now), 1),
    col('Count', (o) => o.count ?? 1, 1, 'integer'),
    { ...name, priority: 1 },
  ],
  'apps/Deployment': [
    name,
    col('Ready', (o) => `${status(o).readyReplicas ?? 0}/${spec(o).replicas ?? 1}`),
    col('Up-to-date', (o) => status(o).updatedReplicas ?? 0, 0, 'integer'),
    col('Available', (o) => status(o).availableReplicas ?? 0, 0, 'integer'),
    age,
    col(
      'Containers',
      (o) =>
        containers(o)
          .map((c) => c.name)
          .join(','),
      1,
    ),
    col(
      'Images',
      (o) =>
        containers(o)
          .map((c) => c.image)
          .join(','),
      1,
    ),
    col('Selector', (o) => selectorText(spec(o).selector), 1),
  ],
  'apps/ReplicaSet': [
    name,
    col('Desired', (o) => spec(o).replicas ?? 1, 0, 'integer'),
    col('Current', (o) => status(o).replicas ?? 0, 0, 'integer'),
    col('Ready', (o) => status(o).readyReplicas ?? 0, 0, 'integer'),
    age,
  ],
  'apps/DaemonSet': [
    name,
    col('Desired', (o) => status(o).desiredNumberScheduled ?? 0, 0, 'integer'),
    col('Current', (o) => status(o).currentNumberScheduled ?? 0, 0, 'integer'),
    col('Ready', (o) => status(o).numberReady ?? 0, 0, 'integer'),
    col('Up-to-date', (o) => status(o).updatedNumberScheduled ?? 0, 0, 'integer'),
    col('Available', (o) => status(o).numberAvailable ?? 0, 0, 'integer'),
    col('Node Selector', (o) => {
      const sel = Object.entries(spec(o).template?.spec?.nodeSelector ?? {}).map(([k, v]) => `${k}=${v}`);
      return sel.length > 0 ? sel.join(',') : '<none>';
    }),
    age,
  ],
};

/** The columns every other kind gets. */
export const DEFAULT_COLUMNS: readonly Column[] = [name, age];
