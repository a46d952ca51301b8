import { describe, expect, it } from 'vitest';
import { eksToken } from '../../../../functions/adapters/aws/eks-token.js';
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

describe('EKS tokens made from a role’s credentials (the installer’s connection, as in EKS)', () => {
  const INSTALLER = 'arn:aws:iam::111122223333:role/joiner-installer';
  const keys: Record<string, string> = {
    ASIAINSTALLER: INSTALLER,
    ASIANOENTRY: ROLE,
    joiner: 'cluster-creator',
  };
  const tokenOf = (accessKeyId: string) =>
    eksToken({
      clusterName: 'my-cluster',
      region: 'us-west-2',
      credentials: { accessKeyId, secretAccessKey: 'secret' },
      now: Date.UTC(2026, 0, 1),
    });
  const expect401 = (access: AccessEntries, header: string) => {
    expect(() => access.authenticate(header)).toThrow(ApiError);
  };

  it('authenticates the signer’s access entry; the cluster admin access policy puts it in system:masters', async () => {
    const access = new AccessEntries(false, (key) => keys[key]);
    access.addAccessEntry({ principalArn: INSTALLER, kubernetesGroups: [], clusterAdmin: true });
    expect(access.authenticate(`Bearer ${await tokenOf('ASIAINSTALLER')}`)).toEqual({
      username: 'arn:aws:sts::111122223333:assumed-role/joiner-installer/joiner',
      groups: ['system:masters', 'system:authenticated'],
    });
    expect(access.authenticate(`Bearer ${await tokenOf('joiner')}`).groups).toContain('system:masters');
  });

  it('401 for a principal without an access entry, an unknown key, a forged URL, or without a signer lookup', async () => {
    const access = new AccessEntries(false, (key) => keys[key]);
    expect401(access, `Bearer ${await tokenOf('ASIANOENTRY')}`);
    expect401(access, `Bearer ${await tokenOf('ASIAUNKNOWN')}`);
    const forged = `k8s-aws-v1.${Buffer.from('https://evil.example.com/?Action=GetCallerIdentity&X-Amz-Credential=ASIAINSTALLER%2F20260101').toString('base64url')}`;
    access.addAccessEntry({ principalArn: INSTALLER, kubernetesGroups: [], clusterAdmin: true });
    expect401(access, `Bearer ${forged}`);
    expect401(new AccessEntries(), `Bearer ${await tokenOf('ASIAINSTALLER')}`);
  });
});
