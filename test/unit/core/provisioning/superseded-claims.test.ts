import { describe, expect, it } from 'vitest';
import type { NodeClaim, NodeClaimState } from '../../../../functions/core/nodeclaim/nodeclaim.js';
import { splitSuperseded } from '../../../../functions/core/provisioning/superseded-claims.js';

function claim(id: string, state: NodeClaimState, pods: string[], leaseToken?: number): NodeClaim {
  return {
    id,
    state,
    pods: pods.map((uid) => ({ namespace: 'default', name: uid, uid })),
    ...(leaseToken === undefined ? {} : { leaseToken }),
  } as unknown as NodeClaim;
}

const ids = (claims: readonly NodeClaim[]) => claims.map((c) => c.id).sort();

describe('splitSuperseded', () => {
  it('keeps claims that share no pod, whatever their lease', () => {
    const split = splitSuperseded([claim('a', 'Pending', ['p1'], 1), claim('b', 'Pending', ['p2'], 9)]);
    expect(ids(split.live)).toEqual(['a', 'b']);
    expect(split.superseded).toEqual([]);
  });

  it('of two Pending claims sharing a pod, the one written under the older lease gives way', () => {
    const split = splitSuperseded([
      claim('old', 'Pending', ['p1', 'p2'], 3),
      claim('new', 'Pending', ['p2', 'p3'], 4),
    ]);
    expect(ids(split.live)).toEqual(['new']);
    expect(ids(split.superseded)).toEqual(['old']);
  });

  it('a claim written before lease tokens were recorded counts as the oldest', () => {
    const split = splitSuperseded([claim('legacy', 'Pending', ['p1']), claim('new', 'Pending', ['p1'], 1)]);
    expect(ids(split.superseded)).toEqual(['legacy']);
  });

  it('a Pending claim gives way to a launched one, even one written under an older lease', () => {
    const split = splitSuperseded([
      claim('launched', 'Launched', ['p1'], 2),
      claim('pending', 'Pending', ['p1'], 5),
    ]);
    expect(ids(split.live)).toEqual(['launched']);
    expect(ids(split.superseded)).toEqual(['pending']);
  });

  it('never supersedes a claim that launched, nor one whose rival is out of flight', () => {
    const split = splitSuperseded([
      claim('a', 'Launched', ['p1'], 1),
      claim('b', 'Registered', ['p1'], 2),
      claim('c', 'Pending', ['p2'], 1),
      claim('d', 'Gone', ['p2'], 9),
    ]);
    expect(ids(split.live)).toEqual(['a', 'b', 'c', 'd']);
  });

  it('ties (same lease) supersede neither claim', () => {
    const split = splitSuperseded([claim('a', 'Pending', ['p1'], 2), claim('b', 'Pending', ['p1'], 2)]);
    expect(split.superseded).toEqual([]);
  });
});
