import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../../functions/simulator/kube/api/api-error.js';
import {
  AccessEntries,
  CLUSTER_CREATOR_TOKEN,
} from '../../../../functions/simulator/kube/auth/access-entries.js';

const ROLE = 'arn:aws:iam::111122223333:role/joiner-sim-joiner-controller';

describe('simulated EKS access entries', () => {
  it('authenticates the cluster creator as a cluster admin', () => {
    expect(new AccessEntries().authenticate(`Bearer ${CLUSTER_CREATOR_TOKEN}`)).toEqual({
      username: 'kubernetes-admin',
      groups: ['system:masters', 'system:authenticated'],
    });
  });

  it("maps a role's token to its assumed-role username and the entry's groups, one token per principal", () => {
    const access = new AccessEntries();
    const token = access.addAccessEntry({ principalArn: ROLE, kubernetesGroups: ['joiner-controllers'] });
    expect(token).toMatch(/^k8s-aws-v1\./);
    expect(access.authenticate(`Bearer ${token}`)).toEqual({
      username: 'arn:aws:sts::111122223333:assumed-role/joiner-sim-joiner-controller/joiner',
      groups: ['joiner-controllers', 'system:authenticated'],
    });
    const again = access.addAccessEntry({ principalArn: ROLE, kubernetesGroups: ['other'], username: 'me' });
    expect(again).toBe(token);
    expect(access.authenticate(`Bearer ${token}`)).toEqual({
      username: 'me',
      groups: ['other', 'system:authenticated'],
    });
  });

  it('answers 401 Unauthorized to a missing, malformed or unknown token', () => {
    const access = new AccessEntries();
    for (const header of [undefined, '', 'Basic abc', 'Bearer k8s-aws-v1.unknown']) {
      let error: unknown;
      try {
        access.authenticate(header);
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(ApiError);
      expect((error as ApiError).toStatus()).toMatchObject({ code: 401, reason: 'Unauthorized' });
    }
  });

  it('refuses a principal that is no IAM ARN and groups with a reserved prefix, naming them', () => {
    const access = new AccessEntries();
    expect(() => access.addAccessEntry({ principalArn: 'joiner', kubernetesGroups: [] })).toThrow(
      "access entry principalArn 'joiner' is not an IAM role or user ARN",
    );
    expect(() => access.addAccessEntry({ principalArn: ROLE, kubernetesGroups: ['system:masters'] })).toThrow(
      "kubernetesGroups 'system:masters' uses a reserved prefix",
    );
  });
});
