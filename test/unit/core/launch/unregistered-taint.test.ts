/**
 * Karpenter's registration taint in the user data of every family joiner writes: the simulated
 * kubelet reads the taints it registers with from the user data, as a real one does.
 */
import { describe, expect, it } from 'vitest';
import type { BootstrapFamily } from '../../../../functions/core/launch/bootstrap.js';
import { planLaunch } from '../../../../functions/core/launch/fleet-request.js';
import { parseUserData } from '../../../../functions/simulator/kube/kubelet/user-data.js';
import { claim, facts, multusNodeClass, option, resolved } from './fixtures.js';

const UNREGISTERED = { key: 'karpenter.sh/unregistered', effect: 'NoExecute' };

function userData(family: BootstrapFamily, customUserData?: string): string {
  const options = [option('c6i.large', 'us-west-2a', 'on-demand', 0.085)];
  const { templates } = planLaunch({
    claim: claim(options),
    nodeClass: multusNodeClass(customUserData ? { userData: customUserData } : {}),
    family,
    resolved: resolved(),
    options,
    capacityType: 'on-demand',
    clientToken: 'joiner-unregistered-1',
    instanceFacts: facts,
  });
  return templates[0].userData;
}

describe('the karpenter.sh/unregistered taint in the user data', () => {
  it.each(['AL2023', 'AL2', 'Bottlerocket'] as const)(
    '%s: the kubelet registers with it, beside the NodePool taints and startup taints',
    (family) => {
      const boot = parseUserData(userData(family));
      expect(boot.format).toBe(family);
      expect(boot.taints).toContainEqual(UNREGISTERED);
      expect(boot.taints).toContainEqual({ key: 'dedicated', value: 'telco', effect: 'NoSchedule' });
      expect(boot.taints.filter((t) => t.key === UNREGISTERED.key)).toHaveLength(1);
    },
  );

  it('is written in each format the way its bootstrap reads taints', () => {
    expect(userData('AL2023')).toMatch(
      /--register-with-taints=[^"\n]*karpenter\.sh\/unregistered=:NoExecute/,
    );
    expect(userData('AL2')).toMatch(/--register-with-taints=[^'"\n]*karpenter\.sh\/unregistered=:NoExecute/);
    expect(userData('Bottlerocket')).toMatch(/"karpenter\.sh\/unregistered" = \[\s*":NoExecute"\s*\]/);
  });

  it('Custom: the NodeClass user data is passed through untouched (it must ask for the taint itself)', () => {
    const custom = '#!/bin/bash\n/etc/eks/bootstrap.sh eks-telco\n';
    expect(userData('Custom', custom)).toBe(custom);
  });
});
