/**
 * The simulated EKS API: the REST-JSON protocol `@aws-sdk/client-eks` speaks, serving
 * `DescribeCluster` (`GET /clusters/{name}`) for the simulated cluster, so joiner's functions
 * learn its endpoint, CA, version and service CIDR the way they do in AWS. Errors come back as
 * EKS sends them: the `x-amzn-errortype` header and a `{ "message" }` body (`ResourceNotFoundException`
 * 404 for another cluster name, `AccessDeniedException` 403 when the caller's role may not
 * `eks:DescribeCluster` the cluster). Faults: service `eks`.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { FaultInjector } from '../faults.js';
import type { ServiceAuthorizer } from '../iam/authorization/authorization-request.js';
import { accessKeyOf, gateCall } from '../iam/authorization/service-gate.js';
import { listenOnLoopback } from '../loopback-server.js';

/** The cluster the simulated EKS knows. */
export interface SimulatedEksCluster {
  readonly name: string;
  /** API server URL. */
  readonly endpoint: string;
  /** Base64 PEM of the cluster CA. */
  readonly certificateAuthority: string;
  /** Kubernetes minor version, e.g. `1.30`. */
  readonly version: string;
  readonly serviceIpv4Cidr: string;
  /** Epoch ms of creation. */
  readonly createdAt: number;
}

/** Options of {@link startEksSimulator}. */
export interface EksSimulatorOptions {
  readonly region: string;
  readonly accountId: string;
  readonly cluster: SimulatedEksCluster;
  readonly faults?: FaultInjector;
  /** The account's IAM: `eks:DescribeCluster` is authorized on the cluster's ARN. */
  readonly iam?: ServiceAuthorizer;
}

/** A running simulated EKS endpoint. */
export interface EksSimulator {
  /** Endpoint for `new EKSClient({ endpoint })`. */
  readonly url: string;
  /** The ARN of the simulated cluster. */
  readonly clusterArn: string;
  close(): Promise<void>;
}

class EksError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly status: number,
    readonly extra: Record<string, string> = {},
  ) {
    super(message);
  }
}

const CLUSTER_PATH = /^\/clusters\/([^/?]+)\/?$/;
const NAME = /^[0-9A-Za-z][A-Za-z0-9\-_]*$/;

/** Starts the simulated EKS API on 127.0.0.1 and a free port. */
export async function startEksSimulator(options: EksSimulatorOptions): Promise<EksSimulator> {
  const clusterArn = `arn:aws:eks:${options.region}:${options.accountId}:cluster/${options.cluster.name}`;
  const server = createServer((req, res) => {
    void handle(req, res, options, clusterArn);
  });
  const endpoint = await listenOnLoopback(server);
  return { ...endpoint, clusterArn };
}

async function handle(
  req: IncomingMessage,
  res: ServerResponse,
  options: EksSimulatorOptions,
  clusterArn: string,
): Promise<void> {
  try {
    for await (const _ of req) {
      // DescribeCluster has no body; drain whatever was sent.
    }
    const path = new URL(req.url ?? '/', 'http://localhost').pathname;
    const match = CLUSTER_PATH.exec(path);
    if (req.method !== 'GET' || !match)
      throw new EksError(
        'InvalidRequestException',
        `${req.method} ${path} is not an operation of the simulated EKS (DescribeCluster is GET /clusters/{name})`,
        400,
      );
    const fault = options.faults?.check('eks', 'DescribeCluster');
    await options.faults?.wait(fault?.latencyMs);
    if (fault?.error)
      throw new EksError(
        fault.error,
        fault.message ?? `Injected fault: ${fault.error}`,
        fault.httpStatus ?? 500,
      );
    const name = decodeURIComponent(match[1]);
    if (!NAME.test(name) || name.length > 100)
      throw new EksError(
        'InvalidParameterException',
        `The cluster name '${name}' must satisfy regular expression pattern: ^[0-9A-Za-z][A-Za-z0-9\\-_]*`,
        400,
      );
    const resource = `arn:aws:eks:${options.region}:${options.accountId}:cluster/${name}`;
    const denial = gateCall(options.iam, accessKeyOf(req.headers), 'rest-json', () => [
      { action: 'eks:DescribeCluster', resource, context: {} },
    ]);
    if (denial) throw new EksError(denial.code, denial.message, denial.status);
    if (name !== options.cluster.name)
      throw new EksError('ResourceNotFoundException', `No cluster found for name: ${name}.`, 404, {
        clusterName: name,
      });
    send(res, 200, { cluster: describe(options, clusterArn) });
  } catch (error) {
    const e =
      error instanceof EksError ? error : new EksError('ServerException', (error as Error).message, 500);
    send(res, e.status, { message: e.message, ...e.extra }, e.code);
  }
}

/** The cluster as DescribeCluster returns it (the fields joiner and eksctl read, and a few more). */
function describe(options: EksSimulatorOptions, arn: string): Record<string, unknown> {
  const c = options.cluster;
  return {
    name: c.name,
    arn,
    createdAt: c.createdAt / 1000,
    version: c.version,
    endpoint: c.endpoint,
    roleArn: `arn:aws:iam::${options.accountId}:role/${c.name}-cluster`,
    resourcesVpcConfig: { endpointPublicAccess: true, endpointPrivateAccess: true },
    kubernetesNetworkConfig: { serviceIpv4Cidr: c.serviceIpv4Cidr, ipFamily: 'ipv4' },
    status: 'ACTIVE',
    certificateAuthority: { data: c.certificateAuthority },
    platformVersion: 'eks.1',
    accessConfig: { authenticationMode: 'API' },
    tags: {},
  };
}

function send(res: ServerResponse, status: number, body: unknown, errorType?: string): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(text),
    'x-amzn-requestid': randomUUID(),
    ...(errorType ? { 'x-amzn-errortype': errorType } : {}),
  });
  res.end(text);
}
