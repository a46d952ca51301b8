import type { FunctionName } from './event-sources.js';

/**
 * Environment variable names the Lambda functions read. The CDK stack sets them from the same
 * constants, so names cannot drift apart.
 */
export const ENV = {
  clusterName: 'JOINER_CLUSTER_NAME',
  clusterEndpoint: 'JOINER_CLUSTER_ENDPOINT',
  clusterCa: 'JOINER_CLUSTER_CA',
  /** Kubernetes minor version of the cluster (AMI aliases); looked up with DescribeCluster when unset. */
  kubernetesVersion: 'JOINER_KUBERNETES_VERSION',
  /** Service CIDR of the cluster (node user data); looked up with DescribeCluster when unset. */
  serviceCidr: 'JOINER_SERVICE_CIDR',
  /** Path to a kubeconfig (simulated cloud / local runs); when set, endpoint/CA/token are not used. */
  kubeconfig: 'JOINER_KUBECONFIG',
  tableName: 'JOINER_TABLE_NAME',
  busName: 'JOINER_BUS_NAME',
  timersQueueUrl: 'JOINER_TIMERS_QUEUE_URL',
  webhookSecretArn: 'JOINER_WEBHOOK_SECRET_ARN',
  /** The secret itself, for local runs. */
  webhookSecret: 'JOINER_WEBHOOK_SECRET',
  nodeRoleName: 'JOINER_NODE_ROLE_NAME',
  instanceProfileName: 'JOINER_INSTANCE_PROFILE_NAME',
  /**
   * Comma-separated ARNs of the node roles joiner may pass to EC2 (the stack's node role and
   * joiner:nodeRoleArns): a NodeClass `role` must be one of them.
   */
  nodeRoleArns: 'JOINER_NODE_ROLE_ARNS',
  /**
   * `manage` (default) or `ignore` (joiner:karpenterKinds): whether joiner acts on NodePools of
   * Karpenter's kinds, or leaves them to a Karpenter controller running in the cluster.
   */
  karpenterKinds: 'JOINER_KARPENTER_KINDS',
  /**
   * The provisioner's batch window in seconds (joiner:batchIdleSeconds / joiner:batchMaxSeconds):
   * a run starts once this long passed without a new pending pod (default 1) ...
   */
  batchIdleSeconds: 'JOINER_BATCH_IDLE_SECONDS',
  /** ... or this long after the first event of the batch (default 10), as Karpenter's batcher. */
  batchMaxSeconds: 'JOINER_BATCH_MAX_SECONDS',
  /** Endpoint overrides for the simulated cloud. */
  ec2Endpoint: 'JOINER_EC2_ENDPOINT',
  ssmEndpoint: 'JOINER_SSM_ENDPOINT',
  iamEndpoint: 'JOINER_IAM_ENDPOINT',
  eventBridgeEndpoint: 'JOINER_EVENTBRIDGE_ENDPOINT',
  sqsEndpoint: 'JOINER_SQS_ENDPOINT',
  dynamoDbEndpoint: 'JOINER_DYNAMODB_ENDPOINT',
  eksEndpoint: 'JOINER_EKS_ENDPOINT',
  secretsManagerEndpoint: 'JOINER_SECRETSMANAGER_ENDPOINT',
  pricingEndpoint: 'JOINER_PRICING_ENDPOINT',
  logLevel: 'POWERTOOLS_LOG_LEVEL',
  serviceName: 'POWERTOOLS_SERVICE_NAME',
  metricsNamespace: 'POWERTOOLS_METRICS_NAMESPACE',
} as const;

const CONTROLLER_ENV = [ENV.clusterName, ENV.tableName, ENV.busName, ENV.timersQueueUrl] as const;

/**
 * The variables each deployed function cannot run without (the others are optional or looked up).
 * The infrastructure tests check the synthesized stack sets every one of them.
 */
export const REQUIRED_ENV: Readonly<Record<FunctionName, readonly string[]>> = {
  webhook: [ENV.busName, ENV.webhookSecretArn],
  provisioner: CONTROLLER_ENV,
  lifecycle: CONTROLLER_ENV,
  interruption: CONTROLLER_ENV,
  disruption: CONTROLLER_ENV,
  // The cluster name and secret ARN come with each custom resource request.
  installer: [],
  // The refresh writes the catalog snapshot into the state table of the functions' region.
  catalog: [ENV.tableName],
};
