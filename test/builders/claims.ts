/**
 * NodeClaims for the disruption tests: the input of a claim of the `default` pool and class with
 * one instance option, as the provisioner writes it (fixed hashes, no pods listed).
 */
import type { NewNodeClaim } from '../../functions/core/nodeclaim/create.js';
import type { NodeClaimOption } from '../../functions/core/nodeclaim/nodeclaim.js';

/** The input of `default-<name>` with `option` as its only option; `extra` overrides fields. */
export function claimInput(
  name: string,
  option: NodeClaimOption,
  extra: Partial<NewNodeClaim> = {},
): NewNodeClaim {
  return {
    id: `default-${name}`,
    nodePool: 'default',
    nodeClass: 'default',
    nodePoolHash: 'h',
    nodeClassHash: 'h',
    requirements: [],
    labels: {},
    taints: [],
    startupTaints: [],
    options: [option],
    pods: [],
    requests: {},
    ...extra,
  };
}
