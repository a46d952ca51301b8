import { type KarpenterKinds, parseKarpenterKinds } from '../../core/model/config/karpenter-kinds.js';
import { type BatchWindow, parseBatchWindow } from '../../core/provisioning/batch-window.js';
import { ENV } from '../../shared/env.js';

/**
 * What a handler reads from its environment. Required values are read when first used, so a
 * function that never needs the table does not fail for a missing table name; a missing value
 * throws an error naming the variable.
 */
export interface Settings {
  readonly clusterName: string;
  /** AWS region (AWS_REGION, set by Lambda). */
  readonly region: string;
  /** API server URL (JOINER_CLUSTER_ENDPOINT); looked up with DescribeCluster when unset. */
  readonly clusterEndpoint?: string;
  /** Base64 PEM of the cluster CA (JOINER_CLUSTER_CA); looked up with DescribeCluster when unset. */
  readonly clusterCa?: string;
  /** A kubeconfig file (simulated cloud, local runs); when set, endpoint/CA/token are not used for API access. */
  readonly kubeconfigPath?: string;
  readonly tableName: string;
  readonly busName: string;
  readonly timersQueueUrl?: string;
  readonly nodeRoleName?: string;
  readonly instanceProfileName?: string;
  /** Node role ARNs joiner may pass (JOINER_NODE_ROLE_ARNS, comma-separated); unset: not checked. */
  readonly nodeRoleArns?: readonly string[];
  /**
   * Whether NodePools of Karpenter's kinds are acted on (JOINER_KARPENTER_KINDS: `manage`, the
   * default, or `ignore`); any other value throws on first access, naming the variable.
   */
  readonly karpenterKinds: KarpenterKinds;
  /**
   * The provisioner's batch window (JOINER_BATCH_IDLE_SECONDS, JOINER_BATCH_MAX_SECONDS; default
   * 1 s / 10 s); an invalid value throws on first access, naming the variable.
   */
  readonly batchWindow: BatchWindow;
  readonly webhookSecret?: string;
  readonly webhookSecretArn?: string;
  /** Kubernetes minor version for AMI aliases (JOINER_KUBERNETES_VERSION); looked up when unset. */
  readonly kubernetesVersion?: string;
  /** Service CIDR for node user data (JOINER_SERVICE_CIDR); looked up when unset. */
  readonly serviceCidr?: string;
  /** POWERTOOLS_LOG_LEVEL, default INFO. */
  readonly logLevel: string;
  /**
   * Static credentials when this environment object carries them (AWS_ACCESS_KEY_ID /
   * AWS_SECRET_ACCESS_KEY / AWS_SESSION_TOKEN); otherwise the SDK's default chain is used.
   */
  readonly credentials?: AwsCredentials;
  /** Endpoint overrides (simulated cloud). */
  readonly endpoints: {
    readonly ec2?: string;
    readonly ssm?: string;
    readonly iam?: string;
    readonly eventBridge?: string;
    readonly sqs?: string;
    readonly dynamoDb?: string;
    readonly eks?: string;
    readonly secretsManager?: string;
    readonly pricing?: string;
  };
}

/** Static AWS credentials. */
export interface AwsCredentials {
  readonly accessKeyId: string;
  readonly secretAccessKey: string;
  readonly sessionToken?: string;
}

/** Reads settings from `env`; required values throw on first access when missing. */
export function settingsFromEnv(env: NodeJS.ProcessEnv): Settings {
  const optional = (name: string): string | undefined => env[name] || undefined;
  const required = (name: string, what: string): string => {
    const value = env[name];
    if (!value) throw new Error(`environment variable ${name} is not set: ${what}`);
    return value;
  };
  return {
    get clusterName() {
      return required(ENV.clusterName, 'the name of the EKS cluster joiner scales');
    },
    get region() {
      const region = env.AWS_REGION || env.AWS_DEFAULT_REGION;
      if (!region) throw new Error('environment variable AWS_REGION is not set: the region of the cluster');
      return region;
    },
    clusterEndpoint: optional(ENV.clusterEndpoint),
    clusterCa: optional(ENV.clusterCa),
    kubeconfigPath: optional(ENV.kubeconfig),
    get tableName() {
      return required(ENV.tableName, 'the DynamoDB table of joiner state');
    },
    get busName() {
      return required(ENV.busName, "the name of joiner's EventBridge bus");
    },
    timersQueueUrl: optional(ENV.timersQueueUrl),
    nodeRoleName: optional(ENV.nodeRoleName),
    instanceProfileName: optional(ENV.instanceProfileName),
    nodeRoleArns: list(optional(ENV.nodeRoleArns)),
    get karpenterKinds() {
      return parseKarpenterKinds(optional(ENV.karpenterKinds), `environment variable ${ENV.karpenterKinds}`);
    },
    get batchWindow() {
      return parseBatchWindow(optional(ENV.batchIdleSeconds), optional(ENV.batchMaxSeconds), {
        idle: `environment variable ${ENV.batchIdleSeconds}`,
        max: `environment variable ${ENV.batchMaxSeconds}`,
      });
    },
    webhookSecret: optional(ENV.webhookSecret),
    webhookSecretArn: optional(ENV.webhookSecretArn),
    kubernetesVersion: optional(ENV.kubernetesVersion),
    serviceCidr: optional(ENV.serviceCidr),
    logLevel: optional(ENV.logLevel) ?? 'INFO',
    credentials: credentialsOf(env),
    endpoints: {
      ec2: optional(ENV.ec2Endpoint),
      ssm: optional(ENV.ssmEndpoint),
      iam: optional(ENV.iamEndpoint),
      eventBridge: optional(ENV.eventBridgeEndpoint),
      sqs: optional(ENV.sqsEndpoint),
      dynamoDb: optional(ENV.dynamoDbEndpoint),
      eks: optional(ENV.eksEndpoint),
      secretsManager: optional(ENV.secretsManagerEndpoint),
      pricing: optional(ENV.pricingEndpoint),
    },
  };
}

/** A comma-separated list (blanks dropped), or undefined when unset. */
function list(value: string | undefined): readonly string[] | undefined {
  if (value === undefined) return undefined;
  return value
    .split(',')
    .map((v) => v.trim())
    .filter((v) => v !== '');
}

function credentialsOf(env: NodeJS.ProcessEnv): AwsCredentials | undefined {
  const accessKeyId = env.AWS_ACCESS_KEY_ID;
  const secretAccessKey = env.AWS_SECRET_ACCESS_KEY;
  if (!accessKeyId || !secretAccessKey) return undefined;
  return {
    accessKeyId,
    secretAccessKey,
    ...(env.AWS_SESSION_TOKEN ? { sessionToken: env.AWS_SESSION_TOKEN } : {}),
  };
}

/** Reads an optional setting and throws naming `variable` when it is missing. */
export function requireSetting(value: string | undefined, variable: string, what: string): string {
  if (!value) throw new Error(`environment variable ${variable} is not set: ${what}`);
  return value;
}
