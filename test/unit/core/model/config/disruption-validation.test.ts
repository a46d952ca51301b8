import { describe, expect, it } from 'vitest';
import { formatDiagnostic } from '../../../../../functions/core/model/config/diagnostic.js';
import { DEFAULT_NODE_CLASS, errorsOf, load, v1Pool } from './helpers.js';

/** The one error of loading `doc` (with the default node class), which must keep the pool out. */
function onlyError(doc: object, name = 'p') {
  const loaded = load(doc, DEFAULT_NODE_CLASS);
  const errors = errorsOf(loaded);
  expect(errors, JSON.stringify(errors)).toHaveLength(1);
  expect(loaded.nodePools.map((p) => p.name)).not.toContain(name);
  return errors[0];
}

const v1Budget = (budget: object) => v1Pool('p', {}, { disruption: { budgets: [budget] } });
const v1Disruption = (disruption: object) => v1Pool('p', {}, { disruption });

const v1beta1Pool = (disruption: object) => ({
  apiVersion: 'karpenter.sh/v1beta1',
  kind: 'NodePool',
  metadata: { name: 'b' },
  spec: { template: { spec: { nodeClassRef: { name: 'default' } } }, disruption },
});

const provisioner = (spec: object) => ({
  apiVersion: 'karpenter.sh/v1alpha5',
  kind: 'Provisioner',
  metadata: { name: 'prov' },
  spec: { providerRef: { name: 'default' }, ...spec },
});

describe('disruption budgets: errors name the document and the field', () => {
  it.each([
    ['110%', /more than 100%/],
    ['-1', /neither a node count nor a percentage/],
    [-1, /neither a node count nor a percentage/],
    ['10 %', /neither a node count nor a percentage/],
  ])('nodes %s', (nodes, message) => {
    const e = onlyError(v1Budget({ nodes }));
    expect(e).toMatchObject({
      file: 'test.yaml',
      document: 'NodePool/p',
      path: 'spec.disruption.budgets[0].nodes',
    });
    expect(e.message).toMatch(message);
  });

  it.each([
    ['61 * * * *', /minute/],
    ['@sometimes', /unknown macro @sometimes/],
    ['0 0 * *', /expected 5 fields/],
    ['0 0 0 * * *', /expected 5 fields/],
    ['0 0 L * *', /day of month field "L"/],
    ['0 0 * * 5#3', /day of week field "5#3"/],
  ])('schedule %s', (schedule, message) => {
    const e = onlyError(v1Budget({ nodes: '0', schedule, duration: '1h' }));
    expect(e.path).toBe('spec.disruption.budgets[0].schedule');
    expect(e.message).toMatch(/invalid cron schedule/);
    expect(e.message).toMatch(message);
    expect(formatDiagnostic(e)).toMatch(
      /^test\.yaml: NodePool\/p: spec\.disruption\.budgets\[0\]\.schedule: /,
    );
  });

  it('a duration without a schedule names the schedule', () => {
    const e = onlyError(v1Budget({ nodes: '0', duration: '1h' }));
    expect(e.path).toBe('spec.disruption.budgets[0].schedule');
    expect(e.message).toMatch(/schedule and duration must be set together/);
  });

  it('a schedule without a duration names the duration', () => {
    const e = onlyError(v1Budget({ nodes: '0', schedule: '@daily' }));
    expect(e.path).toBe('spec.disruption.budgets[0].duration');
    expect(e.message).toMatch(/schedule and duration must be set together/);
  });

  it.each(['30s', 'Never', '1d', 3600])(
    'a budget duration of %s is refused (hours and minutes only)',
    (duration) => {
      const e = onlyError(v1Budget({ nodes: '0', schedule: '@daily', duration }));
      expect(e.path).toBe('spec.disruption.budgets[0].duration');
      expect(e.hint).toMatch(/minutes/);
    },
  );

  it('an unknown reason names the reason and the ones there are', () => {
    const e = onlyError(v1Budget({ nodes: '10%', reasons: ['Empty', 'Expired'] }));
    expect(e.path).toBe('spec.disruption.budgets[0].reasons[1]');
    expect(e.message).toMatch(/Expired/);
    expect(e.message).toMatch(/Underutilized/);
  });

  it('v1beta1 budgets are checked the same way', () => {
    const e = onlyError(
      v1beta1Pool({ budgets: [{ nodes: '0', schedule: '61 * * * *', duration: '1h' }] }),
      'b',
    );
    expect(e).toMatchObject({ document: 'NodePool/b', path: 'spec.disruption.budgets[0].schedule' });
  });
});

describe('disruption durations and policies', () => {
  it.each([
    ['consolidateAfter', v1Disruption({ consolidateAfter: '5 minutes' }), 'spec.disruption.consolidateAfter'],
    ['expireAfter', v1Pool('p', { expireAfter: '30d' }), 'spec.template.spec.expireAfter'],
    [
      'terminationGracePeriod',
      v1Pool('p', { terminationGracePeriod: '-1h' }),
      'spec.template.spec.terminationGracePeriod',
    ],
  ])('an invalid v1 %s', (_field, doc, path) => {
    const e = onlyError(doc);
    expect(e).toMatchObject({ document: 'NodePool/p', path });
    expect(e.message).toMatch(/invalid duration/);
  });

  it('terminationGracePeriod cannot be Never (leave it out to wait for pods without limit)', () => {
    const e = onlyError(v1Pool('p', { terminationGracePeriod: 'Never' }));
    expect(e.path).toBe('spec.template.spec.terminationGracePeriod');
    expect(e.hint).toMatch(/leave terminationGracePeriod out/);
  });

  it('an unknown v1 consolidationPolicy names the field', () => {
    const e = onlyError(v1Disruption({ consolidationPolicy: 'WhenUnderutilized' }));
    expect(e.path).toBe('spec.disruption.consolidationPolicy');
    expect(e.message).toMatch(/WhenEmptyOrUnderutilized/);
  });

  it('v1beta1 refuses consolidateAfter with WhenUnderutilized, written or defaulted', () => {
    for (const disruption of [
      { consolidationPolicy: 'WhenUnderutilized', consolidateAfter: '30s' },
      { consolidateAfter: '30s' },
    ]) {
      const e = onlyError(v1beta1Pool(disruption), 'b');
      expect(e).toMatchObject({ document: 'NodePool/b', path: 'spec.disruption.consolidateAfter' });
      expect(e.message).toMatch(
        /consolidateAfter cannot be combined with consolidationPolicy=WhenUnderutilized/,
      );
    }
  });

  it('v1beta1 accepts consolidateAfter: Never with WhenUnderutilized', () => {
    const loaded = load(
      v1beta1Pool({ consolidationPolicy: 'WhenUnderutilized', consolidateAfter: 'Never' }),
      DEFAULT_NODE_CLASS,
    );
    expect(errorsOf(loaded)).toEqual([]);
    expect(loaded.nodePools.map((p) => p.name)).toEqual(['b']);
  });

  it('v1beta1 WhenEmpty needs consolidateAfter', () => {
    const e = onlyError(v1beta1Pool({ consolidationPolicy: 'WhenEmpty' }), 'b');
    expect(e.path).toBe('spec.disruption.consolidateAfter');
    expect(e.message).toMatch(/consolidateAfter must be specified with consolidationPolicy=WhenEmpty/);
  });

  it.each(['ttlSecondsAfterEmpty', 'ttlSecondsUntilExpired'])('v1alpha5 negative %s', (field) => {
    const e = onlyError(provisioner({ [field]: -1 }), 'prov');
    expect(e).toMatchObject({ document: 'Provisioner/prov', path: `spec.${field}` });
    expect(e.message).toMatch(/cannot be negative/);
  });

  it('v1alpha5 ttlSecondsAfterEmpty with consolidation.enabled', () => {
    const e = onlyError(provisioner({ ttlSecondsAfterEmpty: 30, consolidation: { enabled: true } }), 'prov');
    expect(e.path).toBe('spec.ttlSecondsAfterEmpty');
  });
});

describe('valid disruption settings load cleanly', () => {
  it('v1 budgets with a macro schedule, a zero count, reasons and a percentage', () => {
    const loaded = load(
      v1Disruption({
        consolidationPolicy: 'WhenEmpty',
        consolidateAfter: '10m',
        budgets: [
          { nodes: '0', schedule: '@daily', duration: '10m' },
          { nodes: '20%', reasons: ['Empty', 'Drifted'] },
          { nodes: '2', schedule: '0 9 ? * MON-FRI', duration: '8h' },
          { nodes: '100%', schedule: '30 1 * * *', duration: '1h30m' },
        ],
      }),
      DEFAULT_NODE_CLASS,
    );
    expect(loaded.diagnostics).toEqual([]);
    expect(loaded.nodePools[0].disruption.budgets).toEqual([
      { nodes: { count: 0 }, schedule: '@daily', durationMs: 600_000 },
      { nodes: { percent: 20 }, reasons: ['Empty', 'Drifted'] },
      { nodes: { count: 2 }, schedule: '0 9 ? * MON-FRI', durationMs: 8 * 3_600_000 },
      { nodes: { percent: 100 }, schedule: '30 1 * * *', durationMs: 5_400_000 },
    ]);
  });

  it('v1beta1 WhenEmpty with consolidateAfter and v1alpha5 ttls', () => {
    const loaded = load(
      v1beta1Pool({ consolidationPolicy: 'WhenEmpty', consolidateAfter: '30s', expireAfter: '720h' }),
      provisioner({ ttlSecondsAfterEmpty: 0, ttlSecondsUntilExpired: 2592000 }),
      DEFAULT_NODE_CLASS,
    );
    expect(errorsOf(loaded)).toEqual([]);
    expect(loaded.nodePools.map((p) => p.name).sort()).toEqual(['b', 'prov']);
  });
});
