/**
 * `joiner simulate --report FILE`: one self-contained HTML file (no network) with the run's charts
 * and tables. Charts are drawn by uPlot (MIT, ~50 KB, canvas-based: thousands of points stay
 * fast, and it is a plain script with no dependencies, so it inlines cleanly), whose script and
 * stylesheet are inlined; the data is inlined as JSON. After drawing, the page sets
 * `window.joinerReport` (each chart's series labels and point counts) for the browser test.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { hourlyCostText, nodePrice, seconds } from '../scenario/format-summary.js';
import type { ScenarioResult } from '../scenario/run-scenario.js';
import type { Percentiles } from '../scenario/summary.js';
import { reportCharts } from './report-charts.js';
import { REPORT_SCRIPT, REPORT_STYLE } from './report-page.js';

const require = createRequire(import.meta.url);

/** uPlot's script and stylesheet, read once. */
function uplotAssets(): { js: string; css: string } {
  return {
    js: readFileSync(require.resolve('uplot/dist/uPlot.iife.min.js'), 'utf8'),
    css: readFileSync(require.resolve('uplot/dist/uPlot.min.css'), 'utf8'),
  };
}

/** What the report says about the run besides the result. */
export interface ReportContext {
  readonly seed: number;
  /** Scenario file, as given. */
  readonly file?: string;
  readonly description?: string;
}

/** The report page of a run. */
export function renderReport(result: ScenarioResult, context: ReportContext): string {
  const { js, css } = uplotAssets();
  const s = result.summary;
  const charts = reportCharts(result);
  const data = safeJson({ charts });
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>joiner simulate: ${esc(s.scenario)}</title>
<style>${css}</style>
<style>${REPORT_STYLE}</style>
</head>
<body>
<header>
<h1>joiner simulate: ${esc(s.scenario)}</h1>
${context.description ? `<p>${esc(context.description)}</p>` : ''}
<p class="meta">seed ${context.seed} · ${seconds(s.virtualDurationMs)} virtual in ${seconds(s.wallDurationMs)} wall at --speed ${result.trace.speed} (speed changes wall time only) · ${result.ok ? '<span class="ok">expectations hold</span>' : `<span class="bad">${result.failures.length} expectation(s) failed</span>`}</p>
</header>
${result.failures.length > 0 ? `<section class="failures" id="failures"><h2>Expectations that failed</h2><ul>${result.failures.map((f) => `<li>${esc(f)}</li>`).join('')}</ul></section>` : ''}
<section class="cards">
${card('pods', `${s.pods.running} / ${s.pods.total} running`, `${s.pods.pending} pending`)}
${card('nodes', String(s.nodes.length), `hourly cost ${hourlyCostText(s)}`)}
${card('cost of the run', `$${spent(result).toFixed(4)}`, `over ${seconds(s.virtualDurationMs)} virtual`)}
${card('pending → nodeclaim launched', p50(s.latency.unschedulableToLaunchMs), p99(s.latency.unschedulableToLaunchMs))}
${card('pending → node Ready', p50(s.latency.unschedulableToReadyMs), p99(s.latency.unschedulableToReadyMs))}
${card('pending → pod Running', p50(s.latency.unschedulableToRunningMs), p99(s.latency.unschedulableToRunningMs))}
${card('disruption', `${s.pdbViolations} PDB violation(s)`, `${s.podsLost} pod(s) lost, ${s.orphanedInstances} orphan(s)`)}
</section>
<section class="charts">
${charts.map((c) => `<figure class="chart" id="${c.id}" data-chart="${c.id}"><figcaption>${esc(c.title)}</figcaption></figure>`).join('\n')}
</section>
<section>
<h2>Latency phases (virtual time)</h2>
${phaseTable(result)}
</section>
<section>
<h2>joiner's actions</h2>
${actionTable(result)}
</section>
<section>
<h2>Nodes at the end</h2>
${nodeTable(result)}
</section>
${result.notes.length > 0 ? `<section><h2>Notes</h2><ul>${result.notes.map((f) => `<li>${esc(f)}</li>`).join('')}</ul></section>` : ''}
<script type="application/json" id="report-data">${data}</script>
<script>${js}</script>
<script>${REPORT_SCRIPT}</script>
</body>
</html>
`;
}

/** USD the nodes cost over the run: the timeline's hourly cost integrated over virtual time. */
function spent(result: ScenarioResult): number {
  const t = result.trace.timeline;
  let usd = 0;
  for (let i = 1; i < t.length; i++) usd += (t[i - 1].hourlyCost * (t[i].at - t[i - 1].at)) / 3_600_000;
  return usd;
}

function card(title: string, value: string, sub: string): string {
  return `<div class="card"><div class="card-title">${esc(title)}</div><div class="card-value">${esc(value)}</div><div class="card-sub">${esc(sub)}</div></div>`;
}

const p50 = (p: Percentiles): string => (p.samples === 0 ? 'n/a' : `p50 ${seconds(p.p50 ?? 0)}`);
const p99 = (p: Percentiles): string =>
  p.samples === 0 ? 'no unschedulable pod' : `p99 ${seconds(p.p99 ?? 0)} · ${p.samples} pods`;

function phaseTable(result: ScenarioResult): string {
  const p = result.summary.latency.phases;
  const rows: Array<[string, Percentiles]> = [
    ['batching: webhook, EventBridge, SQS, batch window', p.batchingMs],
    ['planning: batch window closed until the nodeclaim is written', p.planningMs],
    ...(p.planning
      ? ([
          ['  planning: reads (API latency)', p.planning.readsMs],
          ['  planning: compute (scheduling, parsing; modeled)', p.planning.computeMs],
          ['  planning: state writes', p.planning.writesMs],
          ['  planning: other waits', p.planning.otherMs],
        ] as Array<[string, Percentiles]>)
      : []),
    ['launch API calls: nodeclaim written → launched', p.launchApiMs],
    ['EC2 boot and kubelet: launched → node Ready', p.bootMs],
    ['pod start: node Ready → pod Running', p.podStartMs],
  ];
  return table(
    ['phase', 'p50', 'p99', 'pods'],
    rows.map(([name, q]) => [
      name,
      q.p50 === null ? 'n/a' : seconds(q.p50),
      q.p99 === null ? 'n/a' : seconds(q.p99),
      String(q.samples),
    ]),
  );
}

function actionTable(result: ScenarioResult): string {
  const { actions, startedAt } = result.trace;
  if (actions.length === 0) return '<p>No launch, disruption or interruption.</p>';
  const shown = actions.slice(0, 500);
  const rows = shown.map((a) => [
    seconds(a.at - startedAt),
    a.kind,
    a.function,
    a.message,
    Object.entries(a.fields)
      .filter(([, v]) => typeof v !== 'object')
      .map(([k, v]) => `${k}=${v}`)
      .join(' '),
  ]);
  const more = actions.length > shown.length ? `<p>… ${actions.length - shown.length} more</p>` : '';
  return table(['at', 'kind', 'function', 'what', 'details'], rows, 'actions') + more;
}

function nodeTable(result: ScenarioResult): string {
  const rows = result.summary.nodes.map((n) => [
    n.name,
    n.nodePool ?? '',
    n.instanceType,
    n.zone,
    n.capacityType,
    `${n.pods}${n.maxPods === undefined ? '' : ` / ${n.maxPods}`}`,
    nodePrice(n),
    n.ami ? `${n.ami.id}${n.ami.name ? `\n${n.ami.name}` : ''}` : '',
    n.multusEnis
      .map(
        (e) =>
          `eth${e.deviceIndex} ${e.networkInterfaceId} ${e.subnetName} sg ${e.securityGroups.join(',')}${e.deleteOnTermination ? ' deleteOnTermination' : ''}${e.noManage ? ' no_manage' : ''}`,
      )
      .join('\n'),
  ]);
  return table(
    ['node', 'nodepool', 'type', 'zone', 'capacity', 'pods', 'price', 'AMI', 'Multus ENIs'],
    rows,
    'nodes',
  );
}

function table(head: readonly string[], rows: readonly (readonly string[])[], id?: string): string {
  return `<table${id ? ` id="table-${id}"` : ''}><thead><tr>${head.map((h) => `<th>${esc(h)}</th>`).join('')}</tr></thead><tbody>${rows
    .map((r) => `<tr>${r.map((c) => `<td>${esc(c).replaceAll('\n', '<br>')}</td>`).join('')}</tr>`)
    .join('')}</tbody></table>`;
}

function esc(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** JSON safe inside a script element. */
function safeJson(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}
