import { deprovisioningCases } from './scale-deprovisioning.cases.js';

// Karpenter's scale suite, deprovisioning by consolidation (see scale-deprovisioning.cases.ts;
// expiration, drift and interruption are in scale-deprovisioning-lifecycle.test.ts).
deprovisioningCases("Karpenter's scale suite, deprovisioning, small", [
  [
    'scale-consolidation-delete',
    0.02,
    'multi-node consolidation deletes 4/5 of the nodes after the pods shrink to 1/5',
  ],
  [
    'scale-consolidation-replace',
    0.1,
    'single-node consolidation replaces every 2xlarge node once the pool allows smaller ones',
  ],
  ['scale-emptiness', 0.02, 'WhenEmpty with consolidateAfter 0s deletes every empty node'],
]);
