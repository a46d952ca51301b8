/**
 * The whole simulated cloud in one call: Kubernetes API server, EC2, IAM, SSM, EventBridge, SQS
 * and DynamoDB on 127.0.0.1 free ports, wired together like AWS and EKS are (EC2 instances boot
 * simulated kubelets, EC2 and AWS Health events go to the default bus), with joiner's bus, rules,
 * queues, DLQs and table created from the shared descriptions, and the Lambda runner feeding
 * joiner's handlers from the queues and the sweep schedule.
 */
import { createHash } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { SQSClient } from '@aws-sdk/client-sqs';
import { createDocumentClient } from '../adapters/store/create-state-store.js';
import { DynamoStateStore } from '../adapters/store/dynamo-state-store.js';
import { ensureTable } from '../adapters/store/ensure-table.js';
import { bundledCatalog } from '../core/catalog/bundled.js';
import {
  controllerClusterRole,
  controllerClusterRoleBinding,
  DEFAULT_LAMBDA_GROUP,
} from '../core/install/rbac.js';
import type { Catalog } from '../core/model/instance-type.js';
import { ENV } from '../shared/env.js';
import { DEFAULT_BUS_NAME, JOINER_BUS_NAME } from '../shared/event-rules.js';
import type { FunctionName, QueueName } from '../shared/event-sources.js';
import { SeededRandom, VirtualClock } from './clock.js';
import { type DynamoDbSimulator, startDynamoDbSimulator } from './dynamodb/dynamodb-simulator.js';
import type { EventualConsistencyOptions } from './ec2/consistency/eventual-consistency.js';
import { type Ec2Simulator, type Ec2SimulatorOptions, startEc2Simulator } from './ec2/ec2-simulator.js';
import { regionalCatalog } from './ec2/regional-catalog.js';
import type { Ec2ThrottlingConfig } from './ec2/throttling/throttle-limits.js';
import { defaultTopology } from './ec2/topology.js';
import { type EksSimulator, startEksSimulator } from './eks/eks-simulator.js';
import { EventBusRegistry } from './eventbridge/event-bus.js';
import { startEventBridgeServer } from './eventbridge/eventbridge-server.js';
import { installJoinerRules } from './eventbridge/joiner-rules.js';
import { FaultInjector, delay as wallDelay } from './faults.js';
import { trackUrl } from './http-activity.js';
import type { AccessKey, AccountIdentity } from './iam/authorization/account-identity.js';
import { SIMULATOR_ACCESS_KEY_ID } from './iam/authorization/service-gate.js';
import { type IamSimulator, startIamSimulator } from './iam/iam-simulator.js';
import { type KubeSimulator, startKubeSimulator } from './kube/kube-simulator.js';
import type { KubeTimings } from './kube/timings.js';
import { ApiLatency } from './latency/api-latency.js';
import { startPricingServer } from './pricing/pricing-server.js';
import { functionUrlAuth } from './runner/function-url-auth.js';
import { type FunctionHandler, LambdaRunner } from './runner/lambda-runner.js';
import {
  type SecretsManagerSimulator,
  startSecretsManagerSimulator,
} from './secretsmanager/secrets-manager-simulator.js';
import { internalSqsClient } from './sqs/internal-sqs-client.js';
import { createJoinerQueues, type JoinerQueues } from './sqs/joiner-queues.js';
import { SIMULATOR_CREDENTIALS, startSqsSimulator } from './sqs/sqs-simulator.js';
import { startSsmSimulator } from './ssm/ssm-simulator.js';

/** Options of {@link startSimulatedCloud}. */
export interface SimulatedCloudOptions {
  /** Seed of the random source (jitter, spot draws, fault probabilities). Default 1. */
  readonly seed?: number;
  /** Instance types and offerings. Default: the bundled catalog. */
  readonly catalog?: Catalog;
  /** Default `joiner-sim`. */
  readonly clusterName?: string;
  /**
   * The simulated region: zones `<region>a/b/c`, their subnets, and (without `catalog`) the
   * region's simulated market (see regionalCatalog). Default: the catalog's region, else us-west-2.
   */
  readonly region?: string;
  /**
   * Runs the clock by itself (see VirtualClock): virtual seconds per wall second while everything
   * waits on timers (Infinity jumps); joiner's compute is charged by a model and the simulator's own work not
   * at all, whatever this value. Undefined keeps the clock manual (`clock.advance`).
   */
  readonly autoAdvance?: number;
  /**
   * Whether AWS and Kubernetes calls take their modeled latency (latency/aws-latency-data.ts) in
   * virtual time. Default: on with `autoAdvance`, off with a manual clock.
   */
  readonly apiLatency?: boolean;
  /** Lifecycle timings of the simulated cluster (kubelet stages...). Default: realistic ones. */
  readonly kubeTimings?: Partial<KubeTimings>;
  /** Handlers of joiner's functions, fed by the runner. More can be set later on `runner`. */
  readonly handlers?: Partial<Record<FunctionName, FunctionHandler>>;
  /** Scale of batching windows, visibility and function timeouts (virtual time in auto mode, wall time with a manual clock; see LambdaRunner). Default 1. */
  readonly timeScale?: number;
  /**
   * Names of IAM roles that exist besides the stack's node role (`<cluster>-node`) and that
   * joiner may pass, as `joiner:nodeRoleArns` allows them. Default none.
   */
  readonly nodeRoles?: readonly string[];
  /**
   * Node role ARNs joiner may pass as the stack tells its functions (`joiner:nodeRoleArns`, plus
   * the stack's own node role). Default: the stack's node role and every role of `nodeRoles`.
   */
  readonly nodeRoleArns?: readonly string[];
  /** Names of instance profiles that exist in the account (holding the stack's node role). */
  readonly instanceProfiles?: readonly string[];
  /**
   * Virtual milliseconds before EC2 accepts an instance profile IAM just created (IAM is
   * eventually consistent; launches before then get "Invalid IAM Instance Profile name"). Default 0.
   */
  readonly iamPropagationMs?: number;
  /** Virtual time at start (epoch ms). Default: the clock's fixed start, so runs are reproducible. */
  readonly clockStartMs?: number;
  /** Requests to the API server without credentials act as `system:anonymous` (see KubeSimulatorOptions). */
  readonly anonymousAuth?: boolean;
  /**
   * The account's IAM and the functions' credentials: every AWS call the functions make is then
   * authorized as their role. Absent: every call is allowed (a debugging mode, `--no-iam`).
   */
  readonly account?: AccountIdentity;
  /** Whether the account already has the spot service-linked role. Default false (a fresh account). */
  readonly spotServiceLinkedRole?: boolean;
  /** The account's default EBS encryption key (a customer-managed KMS key ARN). Default none. */
  readonly defaultEbsKmsKeyArn?: string;
  /** The account's KMS keys and their states (a key not listed is enabled). Default none. */
  readonly kmsKeys?: Ec2SimulatorOptions['kmsKeys'];
  /** EC2's Describe* miss just-created resources for up to this window. Default: read-after-write. */
  readonly eventualConsistency?: EventualConsistencyOptions;
  /** EC2's API throttling limits. Default: the documented token buckets. */
  readonly ec2Throttling?: Ec2ThrottlingConfig;
  /**
   * Reserved concurrency per function (`joiner:reservedConcurrency` of the deployed stack). Default:
   * what the `account`'s stack template sets, or none without one (the stack's default).
   */
  readonly reservedConcurrency?: Readonly<Partial<Record<FunctionName, number>>>;
}

/** A running simulated cloud. */
export interface SimulatedCloud {
  readonly endpoints: {
    readonly kubernetes: string;
    readonly ec2: string;
    readonly iam: string;
    readonly ssm: string;
    readonly eventbridge: string;
    readonly sqs: string;
    readonly dynamodb: string;
    readonly pricing: string;
    readonly eks: string;
    readonly secretsManager: string;
  };
  /** The instance types and offerings the cloud started with (the market may change them since). */
  readonly catalog: Catalog;
  /** A cluster-admin kubeconfig file for the simulated API server (removed by close()). */
  readonly kubeconfigPath: string;
  /**
   * The kubeconfig file of joiner's functions (in `env()`): the controller role's identity, whose
   * requests RBAC authorizes against joiner's ClusterRole (removed by close()).
   */
  readonly controllerKubeconfigPath: string;
  /** IAM role of joiner's functions; its access entry maps it to {@link DEFAULT_LAMBDA_GROUP}. */
  readonly controllerRoleArn: string;
  readonly clusterName: string;
  readonly region: string;
  readonly queueUrls: Readonly<Record<QueueName, string>>;
  readonly dlqUrls: Readonly<Record<QueueName, string>>;
  readonly queues: JoinerQueues;
  readonly busName: string;
  readonly tableName: string;
  /** joiner's state table, read the way the functions read it (for summaries and benchmarks). */
  readonly stateStore: DynamoStateStore;
  /** Function URL of the webhook function (502 until a `webhook` handler is set on the runner). */
  readonly webhookUrl: string;
  /** The webhook's path secret: its ARN in the simulated Secrets Manager and its current value. */
  readonly webhookSecret: { readonly arn: string; readonly value: string };
  /** The simulated EKS API (DescribeCluster of this cluster). */
  readonly eks: EksSimulator;
  /** The simulated Secrets Manager (the stack's secrets). */
  readonly secretsManager: SecretsManagerSimulator;
  readonly clock: VirtualClock;
  readonly random: SeededRandom;
  /** The latency model the services apply (and the draws it made). */
  readonly latency: ApiLatency;
  readonly faults: FaultInjector;
  readonly kube: KubeSimulator;
  readonly ec2: Ec2Simulator;
  /** Roles and instance profiles; the stack's node role and profile are `<cluster>-node`. */
  readonly iam: IamSimulator;
  readonly events: EventBusRegistry;
  readonly runner: LambdaRunner;
  /**
   * The environment a handler needs to reach this cloud (JOINER_* names plus AWS region), with the
   * simulator's own (administrator) credentials: for tools and tests, not for joiner's functions.
   */
  env(): Record<string, string>;
  /**
   * The environment of one of joiner's functions: {@link env} with its role's credentials. The
   * installer's has no kubeconfig: like the deployed one it finds the API server with
   * eks:DescribeCluster and authenticates with an EKS token of its role (its access entry has the
   * cluster admin access policy).
   */
  envFor(name: FunctionName): Record<string, string>;
  /** The account's IAM; undefined when IAM is off (everything is allowed). */
  readonly account?: AccountIdentity;
  /** Stops everything; resolves when every server and timer is gone. */
  close(): Promise<void>;
}

/** Starts the simulated cloud. */
export async function startSimulatedCloud(options: SimulatedCloudOptions = {}): Promise<SimulatedCloud> {
  const region = options.region ?? options.catalog?.region ?? bundledCatalog.region;
  const catalog = options.catalog ?? regionalCatalog(bundledCatalog, region);
  const clusterName = options.clusterName ?? 'joiner-sim';
  const clock = new VirtualClock(options.clockStartMs);
  const random = new SeededRandom(options.seed ?? 1);
  // Injected latencies run on the virtual clock when it runs by itself (a simulation).
  const faults = new FaultInjector(random, (ms) =>
    clock.autoSpeed !== undefined ? clock.sleep(ms) : wallDelay(ms),
  );
  const modelLatency = options.apiLatency ?? options.autoAdvance !== undefined;
  const latency = new ApiLatency(
    clock,
    options.seed ?? 1,
    undefined,
    () => modelLatency && clock.autoSpeed !== undefined,
  );
  const topology = defaultTopology(clusterName, region);
  const authorizer = options.account?.authorizer;
  const account = topology.accountId;
  const closers: Array<() => Promise<void>> = [];
  try {
    const [kube, sqs, dynamo, ssm] = await Promise.all([
      startKubeSimulator({
        clock,
        random,
        catalog,
        region,
        latency,
        timings: options.kubeTimings,
        anonymousAuth: options.anonymousAuth,
        faults,
        // EKS tokens name their signer's access key; the account's IAM knows whose it is.
        tokenSigner: (key) =>
          key === SIMULATOR_ACCESS_KEY_ID ? 'cluster-creator' : authorizer?.principalOf(key),
      }),
      startSqsSimulator({
        region,
        delays: clock,
        stamps: clock,
        latency,
        iam: authorizer,
        accountId: account,
      }),
      startDynamoDbSimulator({ latency, iam: authorizer, region, accountId: account }),
      startSsmSimulator({ region, faults, iam: authorizer, accountId: account }),
    ]);
    closers.push(dynamo.close, sqs.close, ssm.close, kube.close);
    const events = new EventBusRegistry({
      sqs: sqs.client,
      region,
      account: topology.accountId,
      now: () => clock.now(),
      deliveryLatency: modelLatency ? () => latency.wait('events', 'RuleDelivery') : undefined,
      iam: authorizer,
    });
    const nodeRole = `${clusterName}-node`;
    const roleArn = (name: string) => `arn:aws:iam::${topology.accountId}:role/${name}`;
    const nodeRoleArns = options.nodeRoleArns
      ? [roleArn(nodeRole), ...options.nodeRoleArns.filter((arn) => arn !== roleArn(nodeRole))]
      : [nodeRole, ...(options.nodeRoles ?? [])].map(roleArn);
    const iam = await startIamSimulator({
      accountId: topology.accountId,
      now: () => clock.now(),
      roles: [nodeRole, ...(options.nodeRoles ?? [])],
      // The stack's own profile, made by CloudFormation with the node role.
      instanceProfiles: [nodeRole, ...(options.instanceProfiles ?? [])].map((name) => ({
        name,
        role: nodeRole,
      })),
      faults,
      iam: authorizer,
    });
    closers.push(iam.close);
    const profileVisible = (profile: { createDate: Date }) =>
      clock.now() >= profile.createDate.getTime() + (options.iamPropagationMs ?? 0);
    const emitting = new Set<Promise<unknown>>();
    const ec2 = await startEc2Simulator({
      clock,
      random,
      catalog,
      region,
      topology,
      faults,
      latency,
      observer: kube.observer,
      // The profile as IAM has it once propagated, with the role a launch passes (iam:PassRole).
      instanceProfileOf: (ref) => {
        const profile = iam.state.findProfile(ref);
        if (!profile || !profileVisible(profile)) return undefined;
        return { arn: profile.arn, roleArn: profile.roles[0]?.arn };
      },
      iam: authorizer,
      spotServiceLinkedRole: options.spotServiceLinkedRole,
      defaultEbsKmsKeyArn: options.defaultEbsKmsKeyArn,
      kmsKeys: options.kmsKeys,
      eventualConsistency: options.eventualConsistency,
      throttling: options.ec2Throttling,
      emit: (event) => {
        const put = events.putEvent(DEFAULT_BUS_NAME, event).catch(() => undefined);
        emitting.add(put);
        void put.finally(() => emitting.delete(put));
      },
    });
    closers.push(ec2.close, async () => void (await Promise.all([...emitting])));
    const queues = await createJoinerQueues(sqs, 'joiner');
    installJoinerRules(
      events,
      mapValues(queues.queues, (q) => q.arn),
    );
    const eventbridge = await startEventBridgeServer(events, { faults, latency, iam: authorizer });
    closers.push(eventbridge.close);
    const pricing = await startPricingServer({
      region,
      instanceTypes: () => ec2.state.instanceTypes.values(),
      faults,
      iam: authorizer,
    });
    closers.push(pricing.close);
    const eks = await startEksSimulator({
      region,
      accountId: account,
      cluster: {
        name: clusterName,
        endpoint: kube.url,
        certificateAuthority: SIMULATED_CLUSTER_CA,
        version: SIMULATED_KUBERNETES_VERSION,
        serviceIpv4Cidr: SIMULATED_SERVICE_CIDR,
        createdAt: clock.now(),
      },
      faults,
      iam: authorizer,
    });
    closers.push(eks.close);
    const secretsManager = await startSecretsManagerSimulator({
      region,
      accountId: account,
      now: () => clock.now(),
      faults,
      iam: authorizer,
    });
    closers.push(secretsManager.close);
    // The webhook's path secret, as the stack's AWS::SecretsManager::Secret generates it.
    const webhookSecret = {
      arn:
        options.account?.webhookSecretArn ??
        `arn:aws:secretsmanager:${region}:${account}:secret:joiner-webhook-path-AbCdEf`,
      value: webhookSecretValue(options.seed ?? 1),
    };
    secretsManager.putSecret(webhookSecret.arn, webhookSecret.value);
    const tableName = 'joiner';
    await createTable(dynamo, region, tableName);
    const documents = createDocumentClient({
      region,
      endpoint: dynamo.url,
      credentials: SIMULATOR_CREDENTIALS,
    });
    closers.push(async () => documents.destroy());
    const controllerRoleArn = `arn:aws:iam::${topology.accountId}:role/${clusterName}-joiner-controller`;
    // What the deployment does: the access entry maps the functions' role to a group, the installer
    // binds joiner's ClusterRole to that group.
    await kube.store.apply(controllerClusterRole());
    await kube.store.apply(controllerClusterRoleBinding(DEFAULT_LAMBDA_GROUP));
    // The installer's access entry: the cluster admin access policy (its EKS tokens name its role).
    if (options.account?.roleArnOf)
      kube.addAccessEntry({
        principalArn: options.account.roleArnOf('installer'),
        kubernetesGroups: [],
        clusterAdmin: true,
      });
    const kubeconfigDir = await mkdtemp(join(tmpdir(), 'joiner-sim-'));
    closers.push(() => rm(kubeconfigDir, { recursive: true, force: true }));
    const kubeconfigPath = await writeKubeconfig(kubeconfigDir, 'kubeconfig.yaml', kube.kubeconfig());
    const controllerKubeconfigPath = await writeKubeconfig(
      kubeconfigDir,
      'controller-kubeconfig.yaml',
      kube.kubeconfig({ principalArn: controllerRoleArn, kubernetesGroups: [DEFAULT_LAMBDA_GROUP] }),
    );
    const credentialsOf = (name: FunctionName): AccessKey =>
      options.account?.credentialsOf(name) ?? SIMULATOR_CREDENTIALS;
    const functionClients = new Map<FunctionName, SQSClient>();
    closers.push(async () => {
      for (const client of functionClients.values()) client.destroy();
    });
    const runner = new LambdaRunner({
      sqs: sqs.client,
      sqsFor: (name) => {
        let client = functionClients.get(name);
        if (!client) {
          client = internalSqsClient({ region, endpoint: sqs.url, credentials: credentialsOf(name) });
          functionClients.set(name, client);
        }
        return client;
      },
      clock,
      region,
      account: topology.accountId,
      queues: queues.queues,
      handlers: options.handlers,
      timeScale: options.timeScale,
      latency,
      reservedConcurrency: options.reservedConcurrency ?? options.account?.reservedConcurrency ?? {},
    });
    runner.start();
    closers.push(() => runner.stop());
    // Lambda checks the URL's auth type and the function's resource policy before invoking it.
    const webhookUrl = await runner.functionUrl(
      'webhook',
      options.account?.functionUrlOf
        ? functionUrlAuth(options.account.authorizer, options.account.functionUrlOf('webhook'))
        : undefined,
    );
    const endpoints = {
      kubernetes: kube.url,
      ec2: ec2.url,
      iam: iam.url,
      ssm: ssm.url,
      eventbridge: eventbridge.url,
      sqs: sqs.url,
      dynamodb: dynamo.url,
      pricing: pricing.url,
      eks: eks.url,
      secretsManager: secretsManager.url,
    };
    // Requests the services serve are the simulator's work (virtual time holds meanwhile).
    const untrack = Object.values(endpoints).map((url) => trackUrl(clock.activity, url));
    closers.unshift(async () => {
      for (const u of untrack) u();
    });
    if (options.autoAdvance !== undefined) clock.startAuto(options.autoAdvance);
    const env = () => ({
      ...cloudEnv(endpoints, {
        clusterName,
        region,
        kubeconfigPath: controllerKubeconfigPath,
        tableName,
        queues,
        nodeRoleArns,
        webhookSecretArn: webhookSecret.arn,
      }),
      ...scaledBatchWindow(options.timeScale),
    });
    return {
      endpoints,
      catalog,
      kubeconfigPath,
      controllerKubeconfigPath,
      controllerRoleArn,
      clusterName,
      region,
      queueUrls: mapValues(queues.queues, (q) => q.url),
      dlqUrls: mapValues(queues.deadLetters, (q) => q.url),
      queues,
      busName: JOINER_BUS_NAME,
      tableName,
      stateStore: new DynamoStateStore(documents, tableName),
      webhookUrl,
      webhookSecret,
      eks,
      secretsManager,
      clock,
      random,
      latency,
      faults,
      kube,
      ec2,
      iam,
      events,
      runner,
      env,
      envFor: (name) => {
        const { [ENV.kubeconfig]: kubeconfig, ...rest } = env();
        return {
          ...rest,
          ...(name === 'installer' ? {} : { [ENV.kubeconfig]: kubeconfig }),
          ...credentialEnv(credentialsOf(name)),
        };
      },
      account: options.account,
      close: () => closeAll(clock, closers),
    };
  } catch (error) {
    await closeAll(clock, closers);
    throw error;
  }
}

/** The provisioner's batch window (1 s idle, 10 s max of wall time) scaled like the SQS batching window. */
function scaledBatchWindow(timeScale: number | undefined): Record<string, string> {
  if (timeScale === undefined || timeScale === 1) return {};
  return {
    [ENV.batchIdleSeconds]: String(Math.min(30, timeScale)),
    [ENV.batchMaxSeconds]: String(Math.min(30, 10 * timeScale)),
  };
}

async function closeAll(clock: VirtualClock, closers: Array<() => Promise<void>>): Promise<void> {
  const errors: unknown[] = [];
  // The clock runs until the end: invocations still in flight wait on modeled latencies (virtual
  // timers) and finish while the runner stops, instead of hanging until their clients time out.
  for (const close of closers.splice(0).reverse()) {
    await close().catch((error) => errors.push(error));
  }
  clock.stopAuto();
  if (errors.length > 0) throw new AggregateError(errors, 'simulated cloud: some parts failed to stop');
}

/** The simulated cluster's CA (its API server speaks plain HTTP; nodes get this placeholder). */
const SIMULATED_CLUSTER_CA = Buffer.from('simulated cluster CA').toString('base64');
const SIMULATED_KUBERNETES_VERSION = '1.30';
const SIMULATED_SERVICE_CIDR = '10.100.0.0/16';

function cloudEnv(
  endpoints: SimulatedCloud['endpoints'],
  at: {
    clusterName: string;
    region: string;
    kubeconfigPath: string;
    tableName: string;
    queues: JoinerQueues;
    nodeRoleArns: readonly string[];
    webhookSecretArn: string;
  },
): Record<string, string> {
  return {
    [ENV.clusterName]: at.clusterName,
    [ENV.kubeconfig]: at.kubeconfigPath,
    // No endpoint, CA, version or service CIDR: as the stack deploys by default, the functions
    // look them up with eks:DescribeCluster (the simulated EKS), authorized as their role.
    [ENV.tableName]: at.tableName,
    [ENV.busName]: JOINER_BUS_NAME,
    [ENV.timersQueueUrl]: at.queues.queues.timers.url,
    // The webhook reads its path secret from Secrets Manager, as deployed.
    [ENV.webhookSecretArn]: at.webhookSecretArn,
    [ENV.nodeRoleName]: `${at.clusterName}-node`,
    [ENV.instanceProfileName]: `${at.clusterName}-node`,
    [ENV.nodeRoleArns]: at.nodeRoleArns.join(','),
    [ENV.ec2Endpoint]: endpoints.ec2,
    [ENV.iamEndpoint]: endpoints.iam,
    [ENV.ssmEndpoint]: endpoints.ssm,
    [ENV.eventBridgeEndpoint]: endpoints.eventbridge,
    [ENV.sqsEndpoint]: endpoints.sqs,
    [ENV.dynamoDbEndpoint]: endpoints.dynamodb,
    [ENV.pricingEndpoint]: endpoints.pricing,
    [ENV.eksEndpoint]: endpoints.eks,
    [ENV.secretsManagerEndpoint]: endpoints.secretsManager,
    AWS_REGION: at.region,
    ...credentialEnv(SIMULATOR_CREDENTIALS),
  };
}

/**
 * A 40-character alphanumeric secret, as the stack's generated secret string; derived from the
 * seed (not drawn from the cloud's random source, whose draws decide the scenario).
 */
function webhookSecretValue(seed: number): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
  const bytes = createHash('sha512').update(`joiner webhook secret ${seed}`).digest();
  return [...bytes.subarray(0, 40)].map((b) => alphabet[b % alphabet.length]).join('');
}

function credentialEnv(key: AccessKey): Record<string, string> {
  return { AWS_ACCESS_KEY_ID: key.accessKeyId, AWS_SECRET_ACCESS_KEY: key.secretAccessKey };
}

async function createTable(dynamo: DynamoDbSimulator, region: string, tableName: string): Promise<void> {
  const client = new DynamoDBClient({ region, endpoint: dynamo.url, credentials: SIMULATOR_CREDENTIALS });
  try {
    await ensureTable(client, tableName);
  } finally {
    client.destroy();
  }
}

async function writeKubeconfig(dir: string, name: string, yaml: string): Promise<string> {
  const path = join(dir, name);
  await writeFile(path, yaml, { mode: 0o600 });
  return path;
}

function mapValues<T, U>(record: Record<QueueName, T>, fn: (value: T) => U): Record<QueueName, U> {
  return Object.fromEntries(Object.entries(record).map(([k, v]) => [k, fn(v as T)])) as Record<QueueName, U>;
}
