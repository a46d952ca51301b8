import { describe, expect, it } from 'vitest';
import { admissionEvents } from '../../../../functions/core/admission/admission-events.js';
import { parseAdmissionReview } from '../../../../functions/core/admission/admission-review.js';
import { nodeDeletedDetail } from '../../../../functions/core/events/joiner-events.js';

type Obj = Record<string, unknown>;

function deletion(group: string, resource: string, kind: string, oldObject: Obj) {
  return parseAdmissionReview({
    apiVersion: 'admission.k8s.io/v1',
    kind: 'AdmissionReview',
    request: {
      uid: 'review-1',
      kind: { group, version: 'v1', kind },
      resource: { group, version: 'v1', resource },
      name: (oldObject.metadata as { name: string }).name,
      operation: 'DELETE',
      object: null,
      oldObject,
    },
  }).request;
}

describe('admissionEvents: deletions of Nodes and NodeClaims', () => {
  it('turns the DELETE of a joiner NodeClaim into NodeDeleted with its name', () => {
    const events = admissionEvents(
      deletion('joiner.sh', 'nodeclaims', 'NodeClaim', { metadata: { name: 'default-abc12' } }),
    );
    expect(events).toEqual([
      { detailType: 'NodeDeleted', detail: { kind: 'NodeClaim', name: 'default-abc12' } },
    ]);
    expect(nodeDeletedDetail.safeParse(events[0].detail).success).toBe(true);
  });

  it("turns the DELETE of a Node with joiner's nodeclaim label into NodeDeleted with its claim and instance", () => {
    const node = {
      metadata: { name: 'ip-10-0-1-5', labels: { 'joiner.sh/nodeclaim': 'default-abc12', team: 'x' } },
      spec: { providerID: 'aws:///us-west-2a/i-0abc' },
    };
    const events = admissionEvents(deletion('', 'nodes', 'Node', node));
    expect(events).toEqual([
      {
        detailType: 'NodeDeleted',
        detail: {
          kind: 'Node',
          name: 'ip-10-0-1-5',
          nodeClaim: 'default-abc12',
          providerId: 'aws:///us-west-2a/i-0abc',
        },
      },
    ]);
    expect(nodeDeletedDetail.safeParse(events[0].detail).success).toBe(true);
  });

  it("ignores Nodes joiner did not launch and Karpenter's NodeClaims", () => {
    const theirs = { metadata: { name: 'ip-10-0-1-6', labels: { 'karpenter.sh/nodepool': 'general' } } };
    expect(admissionEvents(deletion('', 'nodes', 'Node', theirs))).toEqual([]);
    const karpenterClaim = { metadata: { name: 'general-xyz' } };
    expect(admissionEvents(deletion('karpenter.sh', 'nodeclaims', 'NodeClaim', karpenterClaim))).toEqual([]);
  });
});
