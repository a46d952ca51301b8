/**
 * The charts of the HTML report as data: per chart its series (label, colour, style) and the
 * aligned columns uPlot draws (x first, one column per series, `null` where a series has no point).
 * x is seconds of virtual time since the scenario started. Pure: the renderer only serialises it.
 */
import { ACTION_KINDS } from '../scenario/action-log.js';
import type { ScenarioResult } from '../scenario/run-scenario.js';
import type { TimelinePoint } from '../scenario/timeline-recorder.js';

/** How a series is drawn. */
export type SeriesStyle = 'line' | 'step' | 'points' | 'bars';

/** One series of a chart. */
export interface ChartSeries {
  readonly label: string;
  readonly color: string;
  readonly style: SeriesStyle;
}

/** One chart. */
export interface ChartSpec {
  /** Element id in the page. */
  readonly id: string;
  readonly title: string;
  readonly xLabel: string;
  readonly yLabel: string;
  readonly series: readonly ChartSeries[];
  /** `[x, ...series]`, all of the same length. */
  readonly data: readonly (readonly (number | null)[])[];
  /** Tick labels of the y axis by value (the actions chart's kinds). */
  readonly yTicks?: Readonly<Record<number, string>>;
  /** Range of the x axis when not the data's (room for the last histogram bar). */
  readonly xRange?: readonly [number, number];
  /** Vertical markers (x in seconds): the scenario's steps, on every chart over time. */
  readonly markers?: readonly { readonly x: number; readonly label: string }[];
}

const PALETTE = ['#1f77b4', '#ff7f0e', '#2ca02c', '#d62728', '#9467bd', '#8c564b', '#e377c2', '#17becf'];

const seconds = (at: number, start: number): number => Math.round(at - start) / 1000;

/** Every chart of a run's report. */
export function reportCharts(result: ScenarioResult): ChartSpec[] {
  const { trace } = result;
  const markers = trace.steps.map((s) => ({ x: seconds(s.at, trace.startedAt), label: s.label }));
  const overTime = [
    podsChart(result),
    nodesChart(result),
    countsChart(result, 'chart-types', 'Nodes by instance type', (p) => p.nodesByType),
    countsChart(result, 'chart-zones', 'Nodes by zone', (p) => p.nodesByZone),
    roomChart(result, 'chart-cpu', 'CPU: requested by bound pods vs allocatable', 'cores', 'cpu'),
    roomChart(result, 'chart-memory', 'Memory: requested by bound pods vs allocatable', 'GiB', 'memoryGiB'),
    costChart(result),
    cumulativeCostChart(result),
    pendingLatencyChart(result),
    actionsChart(result),
  ].map((chart) => ({ ...chart, markers }));
  return [...overTime, latencyChart(result)];
}

function countsChart(
  { trace }: ScenarioResult,
  id: string,
  title: string,
  counts: (p: TimelinePoint) => Readonly<Record<string, number>>,
): ChartSpec {
  const points = trace.timeline;
  const keys = [...new Set(points.flatMap((p) => Object.keys(counts(p))))].sort();
  return {
    id,
    title,
    xLabel: 'virtual time (s)',
    yLabel: 'nodes',
    series: keys.map((label, i) => ({ label, color: PALETTE[i % PALETTE.length], style: 'step' as const })),
    data: [
      points.map((p) => seconds(p.at, trace.startedAt)),
      ...keys.map((k) => points.map((p) => counts(p)[k] ?? 0)),
    ],
  };
}

function roomChart(
  { trace }: ScenarioResult,
  id: string,
  title: string,
  unit: string,
  field: 'cpu' | 'memoryGiB',
): ChartSpec {
  const points = trace.timeline;
  return {
    id,
    title,
    xLabel: 'virtual time (s)',
    yLabel: unit,
    series: [
      { label: 'requested', color: '#d62728', style: 'step' },
      { label: 'allocatable', color: '#1f77b4', style: 'step' },
    ],
    data: [
      points.map((p) => seconds(p.at, trace.startedAt)),
      points.map((p) => p.requested[field]),
      points.map((p) => p.allocatable[field]),
    ],
  };
}

/** The money spent so far: the hourly cost integrated over virtual time (USD). */
function cumulativeCostChart({ trace }: ScenarioResult): ChartSpec {
  const points = trace.timeline;
  let spent = 0;
  const cumulative = points.map((p, i) => {
    if (i > 0) spent += (points[i - 1].hourlyCost * (p.at - points[i - 1].at)) / 3_600_000;
    return Math.round(spent * 1e6) / 1e6;
  });
  return {
    id: 'chart-cumulative-cost',
    title: 'Cumulative cost of the nodes',
    xLabel: 'virtual time (s)',
    yLabel: 'USD',
    series: [{ label: 'spent', color: '#8c564b', style: 'line' }],
    data: [points.map((p) => seconds(p.at, trace.startedAt)), cumulative],
  };
}

/** Each pod that was unschedulable: when it became so (x) and how long until it ran (y). */
function pendingLatencyChart({ trace }: ScenarioResult): ChartSpec {
  const end = seconds(trace.timeline.at(-1)?.at ?? trace.startedAt, trace.startedAt);
  const xs = trace.pendingLatency.map((p) => seconds(p.at, trace.startedAt));
  return {
    id: 'chart-pending-latency',
    title: 'Pending -> Running latency over time (one point per pod)',
    xLabel: 'virtual time the pod became unschedulable (s)',
    yLabel: 'seconds',
    series: [{ label: 'pending -> Running', color: '#2ca02c', style: 'points' }],
    data: [xs, trace.pendingLatency.map((p) => Math.round(p.ms) / 1000)],
    xRange: [0, Math.max(1, end, ...xs)],
  };
}

function podsChart({ trace }: ScenarioResult): ChartSpec {
  const points = trace.timeline;
  return {
    id: 'chart-pods',
    title: 'Workload pods pending and running',
    xLabel: 'virtual time (s)',
    yLabel: 'pods',
    series: [
      { label: 'pending', color: '#d62728', style: 'step' },
      { label: 'running', color: '#2ca02c', style: 'step' },
    ],
    data: [
      points.map((p) => seconds(p.at, trace.startedAt)),
      points.map((p) => p.pending),
      points.map((p) => p.running),
    ],
  };
}

function nodesChart({ trace }: ScenarioResult): ChartSpec {
  const points = trace.timeline;
  const keys = [...new Set(points.flatMap((p) => Object.keys(p.nodes)))].sort();
  return {
    id: 'chart-nodes',
    title: 'Nodes by NodePool / capacity type',
    xLabel: 'virtual time (s)',
    yLabel: 'nodes',
    series: keys.map((label, i) => ({ label, color: PALETTE[i % PALETTE.length], style: 'step' as const })),
    data: [
      points.map((p) => seconds(p.at, trace.startedAt)),
      ...keys.map((k) => points.map((p) => p.nodes[k] ?? 0)),
    ],
  };
}

function costChart({ trace }: ScenarioResult): ChartSpec {
  const points = trace.timeline;
  return {
    id: 'chart-cost',
    title: 'Hourly cost of the nodes',
    xLabel: 'virtual time (s)',
    yLabel: 'USD / hour',
    series: [{ label: 'hourly cost', color: '#9467bd', style: 'step' }],
    data: [points.map((p) => seconds(p.at, trace.startedAt)), points.map((p) => p.hourlyCost)],
  };
}

function actionsChart({ trace }: ScenarioResult): ChartSpec {
  const kinds = ACTION_KINDS.filter((k) => trace.actions.some((a) => a.kind === k));
  const sorted = [...trace.actions].sort((a, b) => a.at - b.at);
  const xs = sorted.map((a) => seconds(a.at, trace.startedAt));
  return {
    id: 'chart-actions',
    title: "joiner's actions",
    xLabel: 'virtual time (s)',
    yLabel: 'action',
    series: kinds.map((kind, i) => ({
      label: kind,
      color: PALETTE[(i + 3) % PALETTE.length],
      style: 'points' as const,
    })),
    data: [xs, ...kinds.map((kind, i) => sorted.map((a) => (a.kind === kind ? i + 1 : null)))],
    yTicks: Object.fromEntries(kinds.map((k, i) => [i + 1, k])),
    // The whole run, as the other charts, so actions line up with the pods and nodes above.
    xRange: [0, Math.max(1, ...xs, seconds(trace.timeline.at(-1)?.at ?? trace.startedAt, trace.startedAt))],
  };
}

/** A histogram of the three latencies over common bins (seconds). */
function latencyChart({ trace }: ScenarioResult): ChartSpec {
  const sets = [
    { label: 'pending -> launched', color: '#1f77b4', samples: trace.latencySamples.launch },
    { label: 'pending -> node Ready', color: '#ff7f0e', samples: trace.latencySamples.ready },
    { label: 'pending -> Running', color: '#2ca02c', samples: trace.latencySamples.running },
  ];
  const all = sets.flatMap((s) => s.samples);
  const max = all.length > 0 ? Math.max(...all) / 1000 : 1;
  const width = binWidth(max);
  const bins = Math.max(1, Math.ceil((max + 1e-9) / width));
  const xs = Array.from({ length: bins }, (_, i) => Math.round((i + 1) * width * 1000) / 1000);
  return {
    id: 'chart-latency',
    title: 'Latency distribution (pods that were unschedulable)',
    xLabel: 'virtual seconds (upper bound of the bin)',
    yLabel: 'pods',
    series: sets.map((s) => ({ label: s.label, color: s.color, style: 'bars' as const })),
    xRange: [0, (bins + 1) * width],
    data: [
      xs,
      ...sets.map((s) => {
        const counts = xs.map(() => 0);
        for (const ms of s.samples) counts[Math.min(bins - 1, Math.floor(ms / 1000 / width))]++;
        return counts;
      }),
    ],
  };
}

function binWidth(maxSeconds: number): number {
  for (const w of [0.5, 1, 2, 5, 10, 15, 30, 60, 120, 300]) if (maxSeconds / w <= 40) return w;
  return 600;
}
