import { describe, expect, it } from 'vitest';
import { ComputeLedger, isReadCall } from '../../../../functions/simulator/runner/compute-ledger.js';
import { planningParts } from '../../../../functions/simulator/scenario/planning-breakdown.js';

const model = { invocationMs: 3, callMs: 1, perKiBMs: 0.5 };

describe('ComputeLedger', () => {
  it('charges the invocation and each call, and what an answer read, in whole ms carrying the rest', () => {
    const ledger = new ComputeLedger(model);
    expect(ledger.takeForCall()).toBe(4);
    ledger.chargeBytes(3 * 1024);
    expect(ledger.takeForCall()).toBe(2);
    ledger.chargeBytes(1024);
    // 0.5 carried + 0.5 read + 1 for the call.
    expect(ledger.takeForCall()).toBe(2);
    ledger.chargeBytes(512);
    expect(ledger.takeRest()).toBe(0);
    ledger.chargeBytes(3 * 512);
    expect(ledger.takeRest()).toBe(1);
    expect(ledger.computeMs).toBe(9);
  });

  it('gives the same charges whatever the host does meanwhile (nothing is measured)', () => {
    const run = () => {
      const ledger = new ComputeLedger(model);
      const paid = [ledger.takeForCall()];
      const end = performance.now() + 20;
      while (performance.now() < end) {
        // a busy host
      }
      ledger.chargeBytes(10_000);
      paid.push(ledger.takeForCall(), ledger.takeRest());
      return paid;
    };
    expect(run()).toEqual(run());
  });

  it('refuses a negative or missing cost, naming the model', () => {
    expect(() => new ComputeLedger({ ...model, callMs: -1 })).toThrow(
      /compute model: every cost must be a number >= 0/,
    );
    expect(() => new ComputeLedger({ ...model, perKiBMs: Number.NaN })).toThrow(/compute model/);
  });

  it('tells reads from writes', () => {
    expect(isReadCall('kubernetes', 'list')).toBe(true);
    expect(isReadCall('kubernetes', 'write')).toBe(false);
    expect(isReadCall('dynamodb', 'Query')).toBe(true);
    expect(isReadCall('dynamodb', 'PutItem')).toBe(false);
    expect(isReadCall('ec2', 'DescribeInstances')).toBe(true);
    expect(isReadCall('ec2', 'CreateFleet')).toBe(false);
  });
});

describe('planningParts', () => {
  it('splits a window into compute, writes, reads and other, counting overlaps once', () => {
    const spans = [
      { kind: 'compute' as const, from: 0, to: 4 },
      { kind: 'read' as const, from: 4, to: 30 },
      { kind: 'read' as const, from: 10, to: 40 },
      { kind: 'compute' as const, from: 40, to: 60 },
      { kind: 'write' as const, from: 60, to: 70 },
      { kind: 'write' as const, from: 200, to: 210 },
    ];
    expect(planningParts(spans, 0, 100)).toEqual({ computeMs: 24, readsMs: 36, writesMs: 10, otherMs: 30 });
    expect(planningParts(spans, 20, 50)).toEqual({ computeMs: 10, readsMs: 20, writesMs: 0, otherMs: 0 });
    expect(planningParts(spans, 50, 50)).toEqual({ computeMs: 0, readsMs: 0, writesMs: 0, otherMs: 0 });
  });
});
