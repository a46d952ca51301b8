import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { renderReport } from '../../functions/simulator/report/html-report.js';
import { parseScenario } from '../../functions/simulator/scenario/load-scenario.js';
import { runScenario } from '../../functions/simulator/scenario/run-scenario.js';
import { scenarioPath } from './scenario-runner.js';

// Scale-out from zero, then to zero again: launches and an emptiness disruption for the timeline.
const SCENARIO = `
name: report-check
description: inflate scales out on spot, then to zero
seed: 5
clusterName: karpenter-demo
cluster:
  - file: ../examples/seed-002/provisioner.yaml
steps:
  - apply:
      - file: ../examples/seed-002/workloads.yaml
  - wait: { for: podsRunning, timeout: 3m }
  - scale: { deployment: inflate, replicas: 0 }
  - wait: { for: nodes, count: 0, timeout: 5m }
`;

const FAST_KUBELETS = {
  nodeRegistered: { delayMs: 1_500, jitterMs: 500 },
  nodeReady: { delayMs: 500, jitterMs: 500 },
  podRunning: { delayMs: 300, jitterMs: 300 },
};

/** Where the screenshot and the page go (gitignored). */
const ARTEFACTS = resolve('test-artifacts');

const CHROMIUM_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** Debian's Chromium (installed by .ci/run when missing). */
function chromiumPath(): string {
  for (const candidate of [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser']) {
    if (candidate && existsSync(candidate)) return candidate;
  }
  try {
    return execFileSync('sh', ['-c', 'command -v chromium'], { encoding: 'utf8' }).trim();
  } catch {
    throw new Error("no Chromium found: install Debian's chromium (.ci/run does) or set CHROMIUM_PATH");
  }
}

interface ChartCheck {
  readonly series: string[];
  readonly points: number[];
  readonly canvas: boolean;
  readonly markers: number;
}

describe('the HTML report in a real browser', () => {
  it('opens without console errors or network, with every chart and its series', {
    timeout: 120_000,
  }, async () => {
    const scenario = await parseScenario(SCENARIO, scenarioPath('report-check'));
    const result = await runScenario(scenario, { speed: 50, kubeTimings: FAST_KUBELETS });
    expect(result.ok, [...result.failures, ...result.notes].join('\n')).toBe(true);
    await mkdir(ARTEFACTS, { recursive: true });
    const page = join(ARTEFACTS, 'report-check.html');
    await writeFile(page, renderReport(result, { seed: 5, description: scenario.description }));

    const profile = await mkdtemp(join(tmpdir(), 'joiner-chromium-'));
    const context = await chromium.launchPersistentContext(profile, {
      executablePath: chromiumPath(),
      headless: true,
      args: CHROMIUM_FLAGS,
      viewport: { width: 1400, height: 1000 },
    });
    try {
      const tab = await context.newPage();
      const problems: string[] = [];
      const requests: string[] = [];
      tab.on('console', (m) => {
        if (m.type() === 'error') problems.push(`console: ${m.text()}`);
      });
      tab.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
      await tab.route('**/*', (route) => {
        const url = route.request().url();
        if (!url.startsWith('file:')) requests.push(url);
        return url.startsWith('file:') ? route.continue() : route.abort();
      });
      await tab.goto(pathToFileURL(page).href);
      await tab.waitForFunction(
        () => (globalThis as unknown as { joinerReport?: unknown }).joinerReport !== undefined,
      );
      const charts = (await tab.evaluate(
        () =>
          (globalThis as unknown as { joinerReport: { charts: Record<string, ChartCheck> } }).joinerReport
            .charts,
      )) as Record<string, ChartCheck>;
      await tab.screenshot({ path: join(ARTEFACTS, 'report-check.png'), fullPage: true });

      expect(problems).toEqual([]);
      expect(requests).toEqual([]);
      const timeline = result.trace.timeline.length;
      expect(Object.keys(charts).sort()).toEqual(
        [
          'chart-actions',
          'chart-cost',
          'chart-cumulative-cost',
          'chart-cpu',
          'chart-latency',
          'chart-memory',
          'chart-nodes',
          'chart-pending-latency',
          'chart-pods',
          'chart-types',
          'chart-zones',
        ].sort(),
      );
      for (const chart of Object.values(charts)) expect(chart.canvas).toBe(true);
      // Every chart over time marks the scenario's four steps; the histogram has no time axis.
      expect(result.trace.steps.map((s) => s.label)).toEqual([
        'step 0 apply',
        'step 1 wait',
        'step 2 scale',
        'step 3 wait',
      ]);
      for (const [id, chart] of Object.entries(charts))
        expect(chart.markers, id).toBe(id === 'chart-latency' ? 0 : 4);
      // Requested vs allocatable: both series over the timeline; allocatable covers requested
      // while nodes run, and both are 0 at the end (scaled to zero).
      for (const id of ['chart-cpu', 'chart-memory'])
        expect(charts[id]).toMatchObject({
          series: ['requested', 'allocatable'],
          points: [timeline, timeline],
        });
      const peak = result.trace.timeline.reduce((m, p) => Math.max(m, p.allocatable.cpu), 0);
      expect(peak).toBeGreaterThan(0);
      for (const p of result.trace.timeline) expect(p.requested.cpu).toBeLessThanOrEqual(p.allocatable.cpu);
      expect(result.trace.timeline.at(-1)?.allocatable).toEqual({ cpu: 0, memoryGiB: 0 });
      // Nodes by instance type and by zone: the same nodes as by pool, split otherwise.
      const total = (by: 'nodes' | 'nodesByType' | 'nodesByZone') =>
        result.trace.timeline.map((p) => Object.values(p[by]).reduce((a, b) => a + b, 0));
      expect(total('nodesByType')).toEqual(total('nodes'));
      expect(total('nodesByZone')).toEqual(total('nodes'));
      expect(charts['chart-types'].series.length).toBeGreaterThan(0);
      expect(charts['chart-zones'].series.every((z) => /^us-west-2[a-z]$/.test(z))).toBe(true);
      // Cumulative cost grows and never falls; one point per moment.
      expect(charts['chart-cumulative-cost']).toMatchObject({ series: ['spent'], points: [timeline] });
      // Pending latency over time: one point per pod that was unschedulable and then ran.
      expect(charts['chart-pending-latency'].points).toEqual([result.trace.latencySamples.running.length]);
      expect(result.trace.latencySamples.running.length).toBeGreaterThan(0);
      expect(charts['chart-pods']).toMatchObject({
        series: ['pending', 'running'],
        points: [timeline, timeline],
      });
      expect(charts['chart-cost']).toMatchObject({ series: ['hourly cost'], points: [timeline] });
      // One spot pool; the series has a point per moment of the timeline.
      expect(charts['chart-nodes'].series).toHaveLength(1);
      expect(charts['chart-nodes'].series[0]).toMatch(/\/spot$/);
      expect(charts['chart-nodes'].points).toEqual([timeline]);
      // Launches and the emptiness disruption, one point per logged action of each kind.
      const count = (kind: string) => result.trace.actions.filter((a) => a.kind === kind).length;
      expect(charts['chart-actions'].series).toEqual(expect.arrayContaining(['launch', 'disruption']));
      charts['chart-actions'].series.forEach((kind, i) => {
        expect(charts['chart-actions'].points[i]).toBe(count(kind));
      });
      expect(count('launch')).toBeGreaterThan(0);
      // Three latency histograms over the same bins.
      expect(charts['chart-latency'].series).toEqual([
        'pending -> launched',
        'pending -> node Ready',
        'pending -> Running',
      ]);
      const bins = charts['chart-latency'].points[0];
      expect(bins).toBeGreaterThan(0);
      expect(charts['chart-latency'].points).toEqual([bins, bins, bins]);
      // The node table lists the final nodes (none left here) and the actions table the launches.
      expect(await tab.locator('#table-actions tbody tr').count()).toBe(result.trace.actions.length);
      // A failed expectation is the first thing the page says, above the cards and charts.
      const failed = renderReport(
        { ...result, ok: false, failures: ['expect: nodes: want 1, got 0'] },
        { seed: 5, description: scenario.description },
      );
      expect(failed.indexOf('id="failures"')).toBeGreaterThan(0);
      expect(failed.indexOf('id="failures"')).toBeLessThan(failed.indexOf('class="cards"'));
      expect(failed).toContain('<li>expect: nodes: want 1, got 0</li>');
      expect(renderReport(result, { seed: 5 })).not.toContain('id="failures"');
    } finally {
      await context.close();
      await rm(profile, { recursive: true, force: true });
    }
  });
});
