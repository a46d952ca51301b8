import { deprovisioningCases } from './scale-deprovisioning.cases.js';

// Karpenter's scale suite, deprovisioning by expiration, drift and interruption (see
// scale-deprovisioning.cases.ts; the consolidation cases are in scale-deprovisioning.test.ts).
deprovisioningCases("Karpenter's scale suite, deprovisioning, small", [
  [
    'scale-expiration',
    0.1,
    'every node expires and is replaced through the second pool (the first held at zero limits)',
  ],
  ['scale-drift', 0.1, 'an AMI alias change drifts every node and each is replaced'],
  ['scale-interruption', 0.02, 'a scheduled-change event for every instance drains and replaces every node'],
]);
