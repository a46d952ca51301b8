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
        ['chart-actions', 'chart-cost', 'chart-latency', 'chart-nodes', 'chart-pods'].sort(),
      );
      for (const chart of Object.values(charts)) expect(chart.canvas).toBe(true);
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
    } finally {
      await context.close();
      await rm(profile, { recursive: true, force: true });
    }
  });
});
