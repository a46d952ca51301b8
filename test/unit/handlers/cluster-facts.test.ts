import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { type AddressInfo, createServer as createTcpServer, type Server as TcpServer } from 'node:net';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cachedClusterDescription } from '../../../functions/adapters/aws/cluster-description.js';
import { eksSource } from '../../../functions/adapters/kube/kube-clients.js';
import {
  clusterFacts,
  clusterInfoOf,
  kubernetesVersionOf,
} from '../../../functions/handlers/runtime/cluster-facts.js';
import { dependenciesFromEnv } from '../../../functions/handlers/runtime/dependencies.js';
import { kubeConnectionOf } from '../../../functions/handlers/runtime/kube-connection.js';
import { settingsFromEnv } from '../../../functions/handlers/runtime/settings.js';

const credentials = {
  accessKeyId: 'AKIDEXAMPLE',
  secretAccessKey: 'wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY',
};
const CA = Buffer.from('-----BEGIN CERTIFICATE-----\nprod\n-----END CERTIFICATE-----\n').toString('base64');

interface FakeCluster {
  status?: string;
  version?: string;
  ipFamily?: 'ipv4' | 'ipv6';
  /** The endpoint DescribeCluster reports (default: the fake API server's TLS port). */
  endpoint?: string;
}

/**
 * A 127.0.0.1 server answering EKS DescribeCluster (REST JSON), plus a TCP port standing for the
 * cluster's API server: it counts the connections the Kubernetes client opens, then hangs up.
 */
class FakeEks {
  readonly clusters = new Map<string, FakeCluster>();
  readonly describes: string[] = [];
  apiServerConnections = 0;
  private server?: Server;
  private apiServer?: TcpServer;
  url = '';
  apiServerUrl = '';

  async start(): Promise<void> {
    this.server = createServer((req, res) => this.handle(req, res));
    this.apiServer = createTcpServer((socket) => {
      this.apiServerConnections++;
      socket.destroy();
    });
    await new Promise<void>((resolve) => this.server?.listen(0, '127.0.0.1', resolve));
    await new Promise<void>((resolve) => this.apiServer?.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    this.apiServerUrl = `https://127.0.0.1:${(this.apiServer.address() as AddressInfo).port}`;
  }

  async close(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => this.server?.close(() => resolve()));
    await new Promise<void>((resolve) => this.apiServer?.close(() => resolve()));
  }

  private handle(req: IncomingMessage, res: ServerResponse): void {
    const match = /^\/clusters\/([^/?]+)/.exec(req.url ?? '/');
    if (req.method === 'GET' && match) this.describe(decodeURIComponent(match[1]), res);
    else json(res, 404, { message: `unknown path ${req.url}` });
  }

  private describe(name: string, res: ServerResponse): void {
    this.describes.push(name);
    const c = this.clusters.get(name);
    if (!c) {
      res.setHeader('x-amzn-errortype', 'ResourceNotFoundException');
      json(res, 404, { message: `No cluster found for name: ${name}.` });
      return;
    }
    const ipv6 = c.ipFamily === 'ipv6';
    json(res, 200, {
      cluster: {
        name,
        arn: `arn:aws:eks:us-west-2:111122223333:cluster/${name}`,
        status: c.status ?? 'ACTIVE',
        version: c.version ?? '1.32',
        endpoint: c.endpoint ?? this.apiServerUrl,
        certificateAuthority: { data: CA },
        kubernetesNetworkConfig: ipv6
          ? { ipFamily: 'ipv6', serviceIpv6Cidr: 'fd12:3456:789a::/108' }
          : { ipFamily: 'ipv4', serviceIpv4Cidr: '172.20.0.0/16' },
      },
    });
  }
}

function json(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

let eks: FakeEks;

beforeEach(async () => {
  eks = new FakeEks();
  await eks.start();
});

afterEach(async () => {
  vi.unstubAllEnvs();
  await eks.close();
});

function env(extra: Record<string, string> = {}): Record<string, string> {
  return {
    AWS_REGION: 'us-west-2',
    AWS_ACCESS_KEY_ID: credentials.accessKeyId,
    AWS_SECRET_ACCESS_KEY: credentials.secretAccessKey,
    JOINER_CLUSTER_NAME: 'prod',
    JOINER_EKS_ENDPOINT: eks.url,
    ...extra,
  };
}

describe('cluster description (eks:DescribeCluster)', () => {
  it('reads endpoint, CA, version and the IPv4 or IPv6 service CIDR', async () => {
    eks.clusters.set('prod', { version: '1.31', endpoint: 'https://ABC.gr7.us-west-2.eks.amazonaws.com' });
    eks.clusters.set('six', { ipFamily: 'ipv6' });
    const options = { region: 'us-west-2', endpoint: eks.url, credentials };
    expect(await cachedClusterDescription({ ...options, clusterName: 'prod' })).toEqual({
      endpoint: 'https://ABC.gr7.us-west-2.eks.amazonaws.com',
      certificateAuthority: CA,
      kubernetesVersion: '1.31',
      serviceCidr: '172.20.0.0/16',
      ipFamily: 'ipv4',
    });
    const six = await cachedClusterDescription({ ...options, clusterName: 'six' });
    expect(six).toMatchObject({ serviceCidr: 'fd12:3456:789a::/108', ipFamily: 'ipv6' });
  });

  it('names the cluster and region when the cluster does not exist, and tries again next time', async () => {
    const options = { clusterName: 'missing', region: 'us-west-2', endpoint: eks.url, credentials };
    await expect(cachedClusterDescription(options)).rejects.toThrow(
      /cannot describe EKS cluster missing in us-west-2: No cluster found for name: missing.*eks:DescribeCluster/,
    );
    eks.clusters.set('missing', {});
    await expect(cachedClusterDescription(options)).resolves.toMatchObject({ kubernetesVersion: '1.32' });
    expect(eks.describes).toEqual(['missing', 'missing']);
  });

  it('refuses a cluster that is not ACTIVE', async () => {
    eks.clusters.set('prod', { status: 'CREATING' });
    const options = { clusterName: 'prod', region: 'us-west-2', endpoint: eks.url, credentials };
    await expect(cachedClusterDescription(options)).rejects.toThrow(
      'EKS cluster prod in us-west-2 is CREATING, not ACTIVE',
    );
  });
});

describe('cluster facts of the functions', () => {
  it('takes every value from the environment without a lookup when all are given', async () => {
    const settings = settingsFromEnv(
      env({
        JOINER_CLUSTER_ENDPOINT: 'https://given.example',
        JOINER_CLUSTER_CA: 'Q0E=',
        JOINER_KUBERNETES_VERSION: '1.33',
        JOINER_SERVICE_CIDR: '10.0.0.0/16',
      }),
    );
    expect(clusterInfoOf(settings)).toEqual({
      name: 'prod',
      endpoint: 'https://given.example',
      certificateAuthority: 'Q0E=',
      serviceCidr: '10.0.0.0/16',
    });
    expect(kubernetesVersionOf(settings)).toBe('1.33');
    expect(kubeConnectionOf(settings)).toMatchObject({
      endpoint: 'https://given.example',
      certificateAuthority: 'Q0E=',
    });
    expect(eks.describes).toEqual([]);
  });

  it('lets environment values win over the looked-up ones', async () => {
    eks.clusters.set('prod', {});
    const settings = settingsFromEnv(env({ JOINER_KUBERNETES_VERSION: '1.30' }));
    const facts = await clusterFacts(settings, [
      'endpoint',
      'certificateAuthority',
      'kubernetesVersion',
      'serviceCidr',
    ]);
    expect(facts).toEqual({
      endpoint: eks.apiServerUrl,
      certificateAuthority: CA,
      kubernetesVersion: '1.30',
      serviceCidr: '172.20.0.0/16',
    });
  });

  it('looks the cluster up once, on first use, across the Kubernetes client and the cloud provider', async () => {
    eks.clusters.set('prod', {});
    vi.stubEnv('AWS_ACCESS_KEY_ID', credentials.accessKeyId);
    vi.stubEnv('AWS_SECRET_ACCESS_KEY', credentials.secretAccessKey);
    const deps = dependenciesFromEnv(env());
    expect(deps.cluster).toBeDefined();
    expect(deps.cloud).toBeDefined();
    expect(eks.describes).toEqual([]);
    const lookup = clusterInfoOf(deps.settings);
    const version = kubernetesVersionOf(deps.settings);
    if (!('info' in lookup) || typeof version !== 'function') throw new Error('expected lazy lookups');
    const [info, v] = await Promise.all([lookup.info(), version()]);
    // The API server stand-in hangs up: what matters is that the client went to the looked-up address.
    await expect(deps.cluster.listNodes()).rejects.toThrow();
    await expect(deps.cluster.listNodes()).rejects.toThrow();
    expect(info).toEqual({
      name: 'prod',
      endpoint: eks.apiServerUrl,
      certificateAuthority: CA,
      serviceCidr: '172.20.0.0/16',
    });
    expect(v).toBe('1.32');
    expect(eks.apiServerConnections).toBeGreaterThanOrEqual(2);
    expect(eks.describes).toEqual(['prod']);
  });

  it('fails the first Kubernetes request with an error naming the cluster when the lookup fails', async () => {
    const settings = settingsFromEnv(env({ JOINER_CLUSTER_NAME: 'gone' }));
    const connection = kubeConnectionOf(settings);
    if (!('address' in connection)) throw new Error('expected a lazy address');
    const source = eksSource({
      clusterName: 'gone',
      address: connection.address,
      token: async () => 'token',
    });
    await expect(source()).rejects.toThrow(/EKS cluster gone in us-west-2/);
    eks.clusters.set('gone', {});
    await expect(source()).resolves.toBeDefined();
    expect(eks.describes).toEqual(['gone', 'gone']);
  });

  it('makes no lookup for a kubeconfig connection', () => {
    const settings = settingsFromEnv(env({ JOINER_KUBECONFIG: 'kubeconfig.yaml' }));
    expect(kubeConnectionOf(settings)).toEqual({ kubeconfigPath: 'kubeconfig.yaml' });
    expect(eks.describes).toEqual([]);
  });
});
