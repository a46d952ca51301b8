/**
 * `minValues` holds on what is actually sent: checked after the options are cut to the
 * CreateFleet cap, kept on the planned (and launched) nodeclaim, and respected by retries.
 */
import { describe, expect, it } from 'vitest';
import { launchNodeClaim } from '../../../../functions/core/launch/launch-nodeclaim.js';
import { minValuesMissed, nextAttemptOptions } from '../../../../functions/core/launch/launch-options.js';
import type { Requirement } from '../../../../functions/core/model/requirement.js';
import { claimFromPlan } from '../../../../functions/core/provisioning/planned-claims.js';
import { schedule } from '../../../../functions/core/scheduling/schedule.js';
import type { PlannedNodeClaim } from '../../../../functions/core/scheduling/types.js';
import { nodeClass, nodePool } from '../../../builders/config.js';
import { pod } from '../../../builders/workloads.js';
import { MemoryStore } from '../provisioning/fakes.js';
import { input, instanceType, pool } from './fixtures.js';

const FAMILY = 'karpenter.k8s.aws/instance-family';
const INSTANCE_TYPE = 'node.kubernetes.io/instance-type';
const FAMILIES = ['a', 'b', 'c', 'd'];

/** Family `a` is cheapest by far and has many sizes: a plain cheapest-first cut keeps only `a`. */
function catalog() {
  return FAMILIES.flatMap((f, fi) =>
    [4, 5, 6, 7, 8].map((cpu) =>
      instanceType(`${f}${cpu}.xlarge`, cpu, 32, (fi + 1) * 0.1 + cpu / 1000, { family: f, spot: false }),
    ),
  );
}

function plan(requirements: Requirement[], maxInstanceTypeOptions: number) {
  return schedule(
    input({
      pods: [pod({ name: 'p', requests: { cpu: '3' } })],
      pools: [pool(nodePool({ requirements }), catalog())],
      maxInstanceTypeOptions,
    }),
  );
}

const families = (c: PlannedNodeClaim) =>
  new Set(c.instanceTypeOptions.map((o) => o.instanceType.replace(/\d.*/, '')));

describe('minValues after the cut to the CreateFleet options', () => {
  const familyMin: Requirement = { key: FAMILY, operator: 'In', values: FAMILIES, minValues: 3 };

  it('keeps enough families within the cap (the cheapest of each family first), and the claim keeps minValues', () => {
    const result = plan([familyMin], 9);
    expect(result.unschedulable).toEqual([]);
    const claim = result.nodeClaims[0];
    expect(claim.instanceTypeOptions.length).toBeLessThanOrEqual(9);
    expect(families(claim).size).toBeGreaterThanOrEqual(3);
    expect(claim.instanceTypeOptions[0].instanceType).toBe('a4.xlarge');
    expect(claim.requirements.find((r) => r.key === FAMILY)).toMatchObject({ minValues: 3 });
    expect(claim.instanceTypeOptions.every((o) => o.labels?.[FAMILY] !== undefined)).toBe(true);
  });

  it('without minValues the cut is simply cheapest first (one family here)', () => {
    const claim = plan([{ key: FAMILY, operator: 'In', values: FAMILIES }], 9).nodeClaims[0];
    expect(families(claim)).toEqual(new Set(['a']));
    expect(claim.instanceTypeOptions[0].labels).toBeUndefined();
  });

  it('a cap too small for minValues leaves the pods unschedulable, saying so', () => {
    const result = plan([familyMin], 6);
    expect(result.nodeClaims).toEqual([]);
    expect(result.unschedulable[0].reason).toMatch(
      /minValues 3 of karpenter\.k8s\.aws\/instance-family: only 2/,
    );
  });

  it('minValues on the instance type itself stays on the planned instance-type requirement', () => {
    const types: Requirement = { key: INSTANCE_TYPE, operator: 'Exists', values: [], minValues: 4 };
    const claim = plan([types], 60).nodeClaims[0];
    expect(claim.requirements.find((r) => r.key === INSTANCE_TYPE)?.minValues).toBe(4);
  });
});

describe('launch retries respect minValues', () => {
  const familyMin: Requirement = { key: FAMILY, operator: 'In', values: FAMILIES, minValues: 3 };

  it('an attempt whose available options miss minValues is not made', () => {
    const claim = plan([familyMin], 9).nodeClaims[0];
    const options = claim.instanceTypeOptions;
    expect(nextAttemptOptions(options, [], claim.requirements)?.options).toHaveLength(options.length);
    const cFamily = options.filter((o) => o.instanceType.startsWith('c'));
    expect(cFamily.length).toBeGreaterThan(0);
    expect(nextAttemptOptions(options, cFamily, claim.requirements)).toBeUndefined();
    expect(
      minValuesMissed(
        options.filter((o) => !o.instanceType.startsWith('c')),
        claim.requirements,
      ),
    ).toMatch(/only 2 value/);
    // Without the requirements (an old caller) the attempt would go ahead.
    expect(nextAttemptOptions(options, cFamily)).toBeDefined();
  });

  it('the launched nodeclaim keeps minValues and fails with MinValuesNotMet instead of launching fewer families', async () => {
    const planned = plan([familyMin], 9).nodeClaims[0];
    const sp = {
      pool: nodePool({ requirements: [familyMin] }),
      nodeClass: nodeClass(),
      instanceTypes: catalog(),
    };
    const claim = claimFromPlan(planned, [sp], new Map([['default/p', pod({ name: 'p' })]]), 0, {
      registrationMs: 1,
      launchMs: 1,
    } as never);
    expect(claim.requirements.find((r) => r.key === FAMILY)?.minValues).toBe(3);
    expect(claim.options[0].labels?.[FAMILY]).toBe('a');
    const store = new MemoryStore();
    await store.createNodeClaim(claim);
    const unavailable = claim.options.filter((o) => o.instanceType.startsWith('b'));
    let launches = 0;
    const result = await launchNodeClaim(
      {
        cloud: {
          launch: async () => {
            launches++;
            return { ok: false, errors: [] };
          },
        } as never,
        store,
        clock: { now: () => 0 },
      },
      { nodePool: sp.pool, nodeClass: sp.nodeClass, instanceFacts: () => undefined, unavailable },
      (await store.getNodeClaim(claim.id))!,
    );
    expect(launches).toBe(0);
    expect(result.outcome).toBe('failed');
    if (result.outcome === 'failed') expect(result.reason).toMatch(/^MinValuesNotMet: minValues 3 of/);
  });
});
