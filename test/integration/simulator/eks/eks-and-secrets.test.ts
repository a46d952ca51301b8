import { DescribeClusterCommand, EKSClient } from '@aws-sdk/client-eks';
import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type EksSimulator, startEksSimulator } from '../../../../functions/simulator/eks/eks-simulator.js';
import { AccountAuthorizer } from '../../../../functions/simulator/iam/authorization/account-authorizer.js';
import {
  type SecretsManagerSimulator,
  startSecretsManagerSimulator,
} from '../../../../functions/simulator/secretsmanager/secrets-manager-simulator.js';

const ACCOUNT = '111122223333';
const REGION = 'us-west-2';
const CLUSTER = `arn:aws:eks:${REGION}:${ACCOUNT}:cluster/my-cluster`;
const SECRET = `arn:aws:secretsmanager:${REGION}:${ACCOUNT}:secret:webhook-path-AbCdEf`;
const role = (name: string) => `arn:aws:iam::${ACCOUNT}:role/${name}`;

let now = Date.UTC(2026, 0, 1);
const authorizer = AccountAuthorizer.fromPolicies(
  {
    identity: {
      [role('reader')]: [
        {
          Version: '2012-10-17',
          Statement: [
            { Effect: 'Allow', Action: 'eks:DescribeCluster', Resource: CLUSTER },
            { Effect: 'Allow', Action: 'secretsmanager:GetSecretValue', Resource: SECRET },
          ],
        },
      ],
      [role('nobody')]: [],
    },
  },
  { account: ACCOUNT, region: REGION, clock: () => now },
);
const reader = authorizer.registerPrincipal(role('reader'), 'reader');
const nobody = authorizer.registerPrincipal(role('nobody'), 'nobody');

let eks: EksSimulator;
let secrets: SecretsManagerSimulator;
beforeAll(async () => {
  eks = await startEksSimulator({
    region: REGION,
    accountId: ACCOUNT,
    iam: authorizer,
    cluster: {
      name: 'my-cluster',
      endpoint: 'http://127.0.0.1:6443',
      certificateAuthority: Buffer.from('ca').toString('base64'),
      version: '1.30',
      serviceIpv4Cidr: '10.100.0.0/16',
      createdAt: now,
    },
  });
  secrets = await startSecretsManagerSimulator({
    region: REGION,
    accountId: ACCOUNT,
    iam: authorizer,
    now: () => now,
  });
  secrets.putSecret(SECRET, 'first');
});
afterAll(async () => {
  await eks.close();
  await secrets.close();
});

const eksClient = (credentials: { accessKeyId: string; secretAccessKey: string }) =>
  new EKSClient({ region: REGION, endpoint: eks.url, credentials, maxAttempts: 1 });
const smClient = (credentials: { accessKeyId: string; secretAccessKey: string }) =>
  new SecretsManagerClient({ region: REGION, endpoint: secrets.url, credentials, maxAttempts: 1 });

describe('simulated EKS DescribeCluster through @aws-sdk/client-eks', () => {
  it('describes the cluster: endpoint, CA, version, service CIDR, ACTIVE', async () => {
    const { cluster } = await eksClient(reader).send(new DescribeClusterCommand({ name: 'my-cluster' }));
    expect(cluster).toMatchObject({
      name: 'my-cluster',
      arn: CLUSTER,
      status: 'ACTIVE',
      endpoint: 'http://127.0.0.1:6443',
      version: '1.30',
      certificateAuthority: { data: Buffer.from('ca').toString('base64') },
      kubernetesNetworkConfig: { serviceIpv4Cidr: '10.100.0.0/16', ipFamily: 'ipv4' },
    });
    expect(cluster?.createdAt).toEqual(new Date(now));
  });

  it('ResourceNotFoundException for another cluster, AccessDeniedException for a role without the grant', async () => {
    // IAM decides first (on cluster/other, which the reader may not describe); the admin learns it is not there.
    await expect(eksClient(reader).send(new DescribeClusterCommand({ name: 'other' }))).rejects.toMatchObject(
      {
        name: 'AccessDeniedException',
      },
    );
    const admin = { accessKeyId: 'joiner', secretAccessKey: 'simulated' };
    await expect(eksClient(admin).send(new DescribeClusterCommand({ name: 'other' }))).rejects.toMatchObject({
      name: 'ResourceNotFoundException',
      message: 'No cluster found for name: other.',
      $metadata: { httpStatusCode: 404 },
    });
    await expect(
      eksClient(nobody).send(new DescribeClusterCommand({ name: 'my-cluster' })),
    ).rejects.toMatchObject({
      name: 'AccessDeniedException',
      message: expect.stringContaining(
        `not authorized to perform: eks:DescribeCluster on resource: ${CLUSTER}`,
      ),
      $metadata: { httpStatusCode: 403 },
    });
    expect(authorizer.denials.at(-1)).toMatchObject({
      principal: role('nobody'),
      action: 'eks:DescribeCluster',
    });
  });
});

describe('simulated Secrets Manager GetSecretValue through @aws-sdk/client-secrets-manager', () => {
  it('reads AWSCURRENT; AWSPREVIOUS exists only after a rotation', async () => {
    const client = smClient(reader);
    const current = await client.send(new GetSecretValueCommand({ SecretId: SECRET }));
    expect(current).toMatchObject({
      ARN: SECRET,
      Name: 'webhook-path',
      SecretString: 'first',
      VersionStages: ['AWSCURRENT'],
    });
    expect(current.CreatedDate).toEqual(new Date(now));
    await expect(
      client.send(new GetSecretValueCommand({ SecretId: SECRET, VersionStage: 'AWSPREVIOUS' })),
    ).rejects.toMatchObject({
      name: 'ResourceNotFoundException',
      message: "Secrets Manager can't find the specified secret value for staging label: AWSPREVIOUS",
    });
    now += 60_000;
    secrets.putSecret(SECRET, 'second');
    expect((await client.send(new GetSecretValueCommand({ SecretId: SECRET }))).SecretString).toBe('second');
    const previous = await client.send(
      new GetSecretValueCommand({ SecretId: SECRET, VersionStage: 'AWSPREVIOUS' }),
    );
    expect(previous.SecretString).toBe('first');
  });

  it('ResourceNotFoundException for an unknown secret; AccessDeniedException for a role without the grant', async () => {
    const other = `arn:aws:secretsmanager:${REGION}:${ACCOUNT}:secret:other-AbCdEf`;
    await expect(
      smClient(nobody).send(new GetSecretValueCommand({ SecretId: SECRET })),
    ).rejects.toMatchObject({
      name: 'AccessDeniedException',
      message: expect.stringContaining(`secretsmanager:GetSecretValue on resource: ${SECRET}`),
    });
    // The reader may read only its secret: IAM refuses the other before it is looked up.
    await expect(smClient(reader).send(new GetSecretValueCommand({ SecretId: other }))).rejects.toMatchObject(
      {
        name: 'AccessDeniedException',
      },
    );
    const admin = { accessKeyId: 'joiner', secretAccessKey: 'simulated' };
    await expect(smClient(admin).send(new GetSecretValueCommand({ SecretId: other }))).rejects.toMatchObject({
      name: 'ResourceNotFoundException',
      message: "Secrets Manager can't find the specified secret.",
    });
  });

  it('bad input: putSecret of something that is not a secret ARN names it', () => {
    expect(() => secrets.putSecret('webhook', 'x')).toThrow(/'webhook' is not a secret ARN/);
  });
});
