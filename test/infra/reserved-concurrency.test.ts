import { Template } from 'aws-cdk-lib/assertions';
import { describe, expect, it } from 'vitest';
import { FUNCTIONS } from '../../functions/shared/event-sources.js';
import { createJoinerApp } from '../../lib/app.js';
import { parseReservedConcurrency } from '../../lib/constructs/reserved-concurrency.js';
import { ContextError } from '../../lib/context.js';
import { resourcesOf, stubCode } from './stack-fixture.js';

const base = {
  'joiner:clusterName': 'prod',
  'joiner:account': '111111111111',
  'joiner:region': 'us-west-2',
};

/** Reserved concurrency by function (from the POWERTOOLS service name), for a context. */
function reserved(extra: Record<string, unknown> = {}): Record<string, number | undefined> {
  const { stack } = createJoinerApp({ context: { ...base, ...extra }, overrides: { code: stubCode } });
  const out: Record<string, number | undefined> = {};
  for (const [, f] of resourcesOf(Template.fromStack(stack), 'AWS::Lambda::Function')) {
    const p = f.Properties as {
      Environment?: { Variables?: Record<string, string> };
      ReservedConcurrentExecutions?: number;
    };
    const name = p.Environment?.Variables?.POWERTOOLS_SERVICE_NAME?.replace(/^joiner-/, '');
    if (name && name in FUNCTIONS) out[name] = p.ReservedConcurrentExecutions;
  }
  return out;
}

describe('reserved concurrency (joiner:reservedConcurrency)', () => {
  // Synthesized while collecting: the first synth of a file loads CDK, which is slow under load.
  const byDefault = reserved();

  it('reserves none by default, so a new account (too small a quota to reserve any) can deploy', () => {
    const all = byDefault;
    expect(Object.keys(all).sort()).toEqual(Object.keys(FUNCTIONS).sort());
    expect(Object.values(all).every((v) => v === undefined)).toBe(true);
  });

  it("'recommended' reserves the shared description's values (28 in all)", () => {
    const all = reserved({ 'joiner:reservedConcurrency': 'recommended' });
    expect(all).toEqual({
      webhook: 20,
      provisioner: 5,
      lifecycle: undefined,
      interruption: undefined,
      disruption: 2,
      installer: undefined,
      catalog: 1,
    });
  });

  it('takes a count per function; the others reserve none', () => {
    const all = reserved({ 'joiner:reservedConcurrency': 'webhook=5,provisioner=2' });
    expect(all.webhook).toBe(5);
    expect(all.provisioner).toBe(2);
    expect(all.disruption).toBeUndefined();
  });

  it('refuses bad values naming the key and the allowed values', () => {
    expect(() => reserved({ 'joiner:reservedConcurrency': 'webhook=0' })).toThrow(ContextError);
    expect(() => parseReservedConcurrency('webhook=0', 'k')).toThrow(
      /k: webhook must be a whole number from 1/,
    );
    expect(() => parseReservedConcurrency('pods=3', 'k')).toThrow(/'pods=3' is not function=count/);
    expect(() => parseReservedConcurrency(7, 'k')).toThrow(/k: must be 'none', 'recommended'/);
    expect(parseReservedConcurrency({ catalog: 1 }, 'k')).toEqual({ catalog: 1 });
  });
});
