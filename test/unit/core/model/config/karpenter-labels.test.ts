/**
 * Every well-known label of Karpenter (test/fixtures/karpenter-well-known-labels.json, from the
 * `labels.go` of kubernetes-sigs/karpenter and aws/karpenter-provider-aws) is computed by joiner
 * for its nodes and matched in planning, or refused at validate with the reason.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { INSTANCE_TYPE_LABEL_KEYS } from '../../../../../functions/core/catalog/well-known-labels.js';
import { unsupportedLabelReason } from '../../../../../functions/core/model/config/labels.js';
import { loadDocuments } from '../../../../../functions/core/model/config/load.js';
import { namedInBackticks, readmeNotSupported } from '../../../../helpers/readme-not-supported.js';

const { labels } = JSON.parse(
  readFileSync(new URL('../../../../fixtures/karpenter-well-known-labels.json', import.meta.url), 'utf8'),
) as { labels: string[] };

/** Labels joiner sets from the offering or the claim: the file that sets it, and the name it uses. */
const FROM_OFFERING_OR_CLAIM: Record<string, [string, string]> = {
  'karpenter.sh/nodepool': ['functions/core/lifecycle/node-labels.ts', 'LABEL_NODEPOOL'],
  'topology.kubernetes.io/zone': ['functions/core/lifecycle/node-labels.ts', 'LABEL_ZONE'],
  'topology.k8s.aws/zone-id': ['functions/core/lifecycle/node-labels.ts', 'LABEL_ZONE_ID'],
  'karpenter.sh/capacity-type': ['functions/core/lifecycle/node-labels.ts', 'LABEL_CAPACITY_TYPE'],
  // Set on nodes launched into a reservation; a requirement on them is refused (see below).
  'karpenter.k8s.aws/capacity-reservation-id': [
    'functions/core/lifecycle/node-labels.ts',
    'CAPACITY_RESERVATION_ID',
  ],
  'karpenter.k8s.aws/capacity-reservation-type': [
    'functions/core/lifecycle/node-labels.ts',
    'CAPACITY_RESERVATION_TYPE',
  ],
  // Allowed as a NodePool requirement or label key: it then becomes a label of the pool's nodes.
  'karpenter.k8s.aws/ec2nodeclass': ['functions/core/model/config/labels.ts', "'ec2nodeclass'"],
};

function pool(key: string) {
  return {
    apiVersion: 'karpenter.sh/v1',
    kind: 'NodePool',
    metadata: { name: 'p' },
    spec: {
      template: {
        spec: {
          nodeClassRef: { group: 'karpenter.k8s.aws', kind: 'EC2NodeClass', name: 'default' },
          requirements: [{ key, operator: 'Exists' }],
        },
      },
    },
  };
}

describe("Karpenter's well-known labels: computed or refused", () => {
  it.each(labels)('%s', (label) => {
    const refused = unsupportedLabelReason(label);
    if (refused !== undefined) {
      const loaded = loadDocuments([{ file: 'p.yaml', index: 0, object: pool(label) }]);
      expect(
        loaded.diagnostics.some(
          (d) => d.severity === 'error' && d.message.includes(`"${label}" is not supported`),
        ),
      ).toBe(true);
      return;
    }
    if (INSTANCE_TYPE_LABEL_KEYS.has(label)) return;
    const pointer = FROM_OFFERING_OR_CLAIM[label];
    expect(pointer, `${label} is neither computed nor refused`).toBeDefined();
    const [file, name] = pointer;
    const text = readFileSync(new URL(`../../../../../${file}`, import.meta.url), 'utf8');
    expect(text, `${file} should set ${label}`).toContain(name);
  });

  it("README's not-supported list names every refused label, and tenancy other than default", () => {
    const named = namedInBackticks(readmeNotSupported());
    const refused = labels.filter((label) => unsupportedLabelReason(label) !== undefined);
    expect(refused.length).toBeGreaterThan(0);
    expect(refused.filter((label) => !named.has(label))).toEqual([]);
    expect(named).toContain('karpenter.k8s.aws/instance-tenancy');
  });
});
