import { describe, expect, it } from 'vitest';
import { KARPENTER_METRICS } from '../../functions/shared/karpenter-metrics.js';
import { METRICS_NAMESPACE, METRICS_SERVICE } from '../../functions/shared/metrics.js';
import { createJoinerApp } from '../../lib/app.js';
import { stubCode } from './stack-fixture.js';
import { ofType, resolveValue, type TemplateResources } from './template-values.js';

const context = {
  'joiner:clusterName': 'prod',
  'joiner:account': '111111111111',
  'joiner:region': 'us-west-2',
};
const { app, stack } = createJoinerApp({ context, overrides: { code: stubCode } });
const resources = app.synth().getStackArtifact(stack.artifactId).template.Resources as TemplateResources;
// biome-ignore lint/suspicious/noExplicitAny: a dashboard body is free-form JSON
type Props = Record<string, any>;
const [, dashboard] = ofType(resources, 'AWS::CloudWatch::Dashboard').find(([id]) =>
  id.startsWith('JoinerKarpenterDashboard'),
) as unknown as [string, { Properties: Props }];
const body = JSON.parse(resolveValue(dashboard.Properties.DashboardBody) as string) as {
  widgets: { type: string; properties: Props }[];
};
const metricsOf = (title: string): unknown[][] => {
  const found = body.widgets.find((w) => w.properties.title === title);
  expect(found, title).toBeDefined();
  return found?.properties.metrics as unknown[][];
};
const expressions = (title: string): string[] =>
  metricsOf(title).map((line) => (line[0] as { expression: string }).expression);

describe('the Karpenter-view dashboard', () => {
  it('is named after the cluster and graphs every Karpenter-named metric joiner publishes', () => {
    expect(dashboard.Properties.DashboardName).toBe('joiner-prod-karpenter');
    const text = JSON.stringify(body);
    for (const name of Object.values(KARPENTER_METRICS)) expect(text, name).toContain(name);
  });

  it('searches each labelled metric over exactly the dimensions the functions publish it with', () => {
    const schema = (...dims: string[]) => `{${[METRICS_NAMESPACE, 'service', ...dims].join(',')}}`;
    expect(expressions('Nodeclaims created by NodePool')).toEqual([
      `SEARCH('${schema('nodepool', 'reason')} MetricName="${KARPENTER_METRICS.nodeClaimsCreated}"', 'Sum', 300)`,
    ]);
    expect(expressions('Nodeclaims terminated by NodePool')[0]).toContain(schema('nodepool'));
    expect(expressions('Nodeclaims disrupted by reason')[0]).toContain(schema('nodepool', 'reason'));
    // Decisions carry consolidation_type only for consolidation: both dimension sets are searched.
    expect(expressions('Voluntary disruption decisions')).toEqual([
      expect.stringContaining(schema('decision', 'reason', 'consolidation_type')),
      expect.stringContaining(schema('decision', 'reason')),
    ]);
    expect(expressions('Interruption messages by type')[0]).toContain(schema('message_type', 'actionable'));
    expect(expressions('Cloud provider errors')[0]).toContain(
      schema('controller', 'method', 'provider', 'error'),
    );
  });

  it('graphs pod startup and scheduling durations as percentiles', () => {
    expect(metricsOf('Pod startup duration')).toEqual(
      ['p50', 'p90', 'p99'].map((stat) => [
        METRICS_NAMESPACE,
        KARPENTER_METRICS.podStartupDuration,
        'service',
        METRICS_SERVICE,
        expect.objectContaining({ stat }),
      ]),
    );
    expect(metricsOf('Scheduling duration')).toEqual(
      ['p50', 'p99'].map((stat) => [
        METRICS_NAMESPACE,
        KARPENTER_METRICS.schedulingDuration,
        'controller',
        'provisioner',
        'service',
        METRICS_SERVICE,
        expect.objectContaining({ stat }),
      ]),
    );
  });
});
