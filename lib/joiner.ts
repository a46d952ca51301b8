import { Token } from 'aws-cdk-lib';
import type { Code } from 'aws-cdk-lib/aws-lambda';
import { Topic } from 'aws-cdk-lib/aws-sns';
import { Construct } from 'constructs';
import { joinerManifests } from '../functions/core/install/index.js';
import type { KarpenterKinds } from '../functions/core/model/config/karpenter-kinds.js';
import type { BatchWindow } from '../functions/core/provisioning/batch-window.js';
import type { FunctionName } from '../functions/shared/event-sources.js';
import { JoinerAlarms } from './constructs/alarms.js';
import { CatalogRefresh } from './constructs/catalog-refresh.js';
import { ClusterAccess } from './constructs/cluster-access.js';
import { type ClusterDocument, ClusterInstaller } from './constructs/cluster-installer.js';
import { ClusterNetwork } from './constructs/cluster-network.js';
import { ControllerPermissions } from './constructs/controller-permissions.js';
import { JoinerEventBus } from './constructs/event-bus.js';
import type { LogLevel } from './constructs/handler-function.js';
import { InterruptionRules } from './constructs/interruption-rules.js';
import { JoinerFunctions } from './constructs/joiner-functions.js';
import { JoinerMetrics } from './constructs/joiner-metrics.js';
import { KarpenterDashboard } from './constructs/karpenter-dashboard.js';
import { NodeRole } from './constructs/node-role.js';
import { OperationsDashboard } from './constructs/operations-dashboard.js';
import { QueueSubscriptions } from './constructs/queue-subscriptions.js';
import type { ReservedConcurrency } from './constructs/reserved-concurrency.js';
import { StateTable } from './constructs/state-table.js';
import { SweepSchedule } from './constructs/sweep-schedule.js';
import { WebhookEndpoint } from './constructs/webhook-endpoint.js';
import { WorkQueues } from './constructs/work-queues.js';

/** Configuration of joiner for one existing EKS cluster. */
export interface JoinerProps {
  /** Name of the existing EKS cluster (access entries enabled, Kubernetes >= 1.30). */
  readonly clusterName: string;
  /** API server endpoint. @default looked up by the functions with eks:DescribeCluster */
  readonly clusterEndpoint?: string;
  /** Base64 cluster CA. @default looked up by the functions with eks:DescribeCluster */
  readonly clusterCertificateAuthority?: string;
  /** Kubernetes minor version of the cluster (AMI aliases), e.g. `1.31`. @default looked up with eks:DescribeCluster */
  readonly kubernetesVersion?: string;
  /** Service CIDR of the cluster (node user data). @default looked up with eks:DescribeCluster */
  readonly serviceCidr?: string;
  /**
   * Whether joiner acts on NodePools of Karpenter's kinds (karpenter.sh NodePool, Provisioner):
   * `manage`, or `ignore` while a Karpenter controller runs in the cluster (joiner then acts only
   * on joiner.sh NodePools, and only then installs joiner's own NodePool kind). @default 'manage'
   */
  readonly karpenterKinds?: KarpenterKinds;
  /**
   * The provisioner's batch window, as Karpenter's batcher: a run plans once `idleMs` passed
   * without a new pending pod, or `maxMs` after the first. @default 1 s idle, 10 s max
   */
  readonly batchWindow?: BatchWindow;
  /**
   * A label of the webhook secret's rotation (README, "Rotating the webhook secret"): changing it
   * re-runs the installer, which writes the secret's current value into the webhook URLs; the
   * webhook accepts the previous value for a day. @default none
   */
  readonly webhookSecretRotation?: string;
  /** The cluster's VPC: launches may then only use its subnets and security groups. @default any VPC */
  readonly vpcId?: string;
  /**
   * Subnets of `vpcId` to run the functions that call the API server in, for a private endpoint
   * (README, "Private clusters"); needs `vpcId` and `clusterSecurityGroupId`. @default no VPC
   */
  readonly functionSubnetIds?: readonly string[];
  /** The cluster security group; it admits those functions on 443. Needs `functionSubnetIds`. */
  readonly clusterSecurityGroupId?: string;
  /**
   * ARNs of node roles EC2NodeClasses may name in `role` (joiner makes an instance profile for
   * each and may pass only these and its own node role to EC2). @default none
   */
  readonly nodeRoleArns?: readonly string[];
  /**
   * Your own SSM parameters the controller functions may read: EC2NodeClass
   * `amiSelectorTerms[].ssmParameter` names, or a path ending in `*` (`/my-team/amis/*`). The
   * public EKS and Bottlerocket AMI parameters are always readable. @default none
   */
  readonly ssmParameterNames?: readonly string[];
  /**
   * Customer-managed KMS key ARNs EC2NodeClasses encrypt their EBS volumes with (`kmsKeyID`, or
   * the account's default EBS key when it is customer-managed): the controller role may use
   * exactly these through EC2 (`kms:CreateGrant` for AWS resources, `kms:Decrypt`,
   * `kms:GenerateDataKeyWithoutPlaintext`, `kms:ReEncrypt*`, `kms:DescribeKey`, each only via
   * `ec2.<region>.amazonaws.com`). @default none
   */
  readonly ebsKmsKeyArns?: readonly string[];
  /** NodePool / NodeClass YAML documents to install into the cluster. @default none */
  readonly documents?: readonly ClusterDocument[];
  /** Seconds the provisioning queue gathers unschedulable pods into one plan. @default 1 */
  readonly provisioningBatchingWindowSeconds?: number;
  /** @default 'INFO' */
  readonly logLevel?: LogLevel;
  /**
   * Reserved concurrency of the functions: 'none', 'recommended' (webhook 20, provisioner 5,
   * disruption 2, catalog 1) or a count per function. New accounts cannot reserve any (README,
   * "Reserved concurrency"). @default 'none'
   */
  readonly reservedConcurrency?: ReservedConcurrency;
  /** Kubernetes group of the controller functions. @default 'joiner-controllers' */
  readonly lambdaGroup?: string;
  /** Name of the custom event bus. @default 'joiner' */
  readonly busName?: string;
  /** Code per function instead of the esbuild bundles (pre-built bundles, test stubs). */
  readonly code?: (name: FunctionName) => Code;
  /** An address that gets alarm notifications (an SNS topic is created). @default no notifications */
  readonly alarmEmail?: string;
  /** An existing SNS topic the alarms notify, instead of `alarmEmail`. @default no notifications */
  readonly alarmTopicArn?: string;
}

const CLUSTER_NAME = /^[0-9A-Za-z][A-Za-z0-9_-]{0,99}$/;

/**
 * joiner, the Lambda-only node autoscaler, for one existing EKS cluster: state table, event bus
 * and rules, queues, functions, the one-minute sweep, the webhook endpoint, node role, EKS access
 * entries, the in-cluster installation, and the alarms and operations dashboard. Put it in any stack.
 */
export class Joiner extends Construct {
  readonly table: StateTable;
  readonly queues: WorkQueues;
  readonly events: JoinerEventBus;
  readonly nodeRole: NodeRole;
  readonly functions: JoinerFunctions;
  readonly webhook: WebhookEndpoint;
  readonly installer: ClusterInstaller;
  readonly alarms: JoinerAlarms;
  readonly dashboard: OperationsDashboard;
  /** Karpenter's capacity and performance panels over joiner's Karpenter-named metrics. */
  readonly karpenterDashboard: KarpenterDashboard;

  constructor(scope: Construct, id: string, props: JoinerProps) {
    super(scope, id);
    assertClusterName(props.clusterName);
    this.table = new StateTable(this, 'State');
    this.queues = new WorkQueues(this, 'Queues');
    this.events = new JoinerEventBus(this, 'Events', { queues: this.queues, busName: props.busName });
    new InterruptionRules(this, 'Interruptions', { queues: this.queues });
    this.nodeRole = new NodeRole(this, 'NodeRole', {
      clusterName: props.clusterName,
      additionalRoleArns: props.nodeRoleArns,
    });
    const network = clusterNetwork(this, props);
    this.functions = new JoinerFunctions(this, 'Functions', {
      ...props,
      ...(network ? { network } : {}),
      table: this.table.table,
      bus: this.events.bus,
      queues: this.queues,
      nodeRole: this.nodeRole,
    });
    const fns = this.functions.functions;
    new ControllerPermissions(this, 'ControllerPermissions', {
      role: this.functions.controllerRole,
      nodeRole: this.nodeRole.role,
      additionalNodeRoleArns: props.nodeRoleArns,
      clusterName: props.clusterName,
      vpcId: props.vpcId,
      instanceOwner: this.table.table.tableName,
      ssmParameterNames: props.ssmParameterNames,
      ebsKmsKeyArns: props.ebsKmsKeyArns,
    });
    new QueueSubscriptions(this, 'Subscriptions', {
      queues: this.queues,
      functions: fns,
      provisioningBatchingWindowSeconds: props.provisioningBatchingWindowSeconds,
    });
    new SweepSchedule(this, 'Sweep', {
      function: fns.disruption,
      deadLetterQueue: this.queues.ruleTargetDeadLetters,
    });
    new CatalogRefresh(this, 'Catalog', {
      function: fns.catalog,
      role: this.functions.catalogRole,
      table: this.table.table,
      deadLetterQueue: this.queues.ruleTargetDeadLetters,
    });
    this.webhook = new WebhookEndpoint(this, 'Webhook', { function: fns.webhook });
    this.webhook.secret.grantRead(fns.installer);
    const access = new ClusterAccess(this, 'ClusterAccess', {
      clusterName: props.clusterName,
      nodeRole: this.nodeRole.role,
      controllerRole: this.functions.controllerRole,
      installerRole: this.functions.installerRole,
      lambdaGroup: props.lambdaGroup,
    });
    this.installer = new ClusterInstaller(this, 'Install', {
      function: fns.installer,
      clusterName: props.clusterName,
      manifests: joinerManifests({
        webhookUrl: this.webhook.webhookUrl,
        lambdaGroup: props.lambdaGroup,
        karpenterKinds: props.karpenterKinds,
      }),
      documents: props.documents,
      webhookSecretArn: this.webhook.secret.secretArn,
      webhookSecretRotation: props.webhookSecretRotation,
      dependsOn: access.entries,
    });
    const metrics = new JoinerMetrics({ functions: fns, queues: this.queues });
    this.alarms = new JoinerAlarms(this, 'Alarms', {
      metrics,
      email: props.alarmEmail,
      topic: props.alarmTopicArn ? Topic.fromTopicArn(this, 'AlarmTopic', props.alarmTopicArn) : undefined,
    });
    this.dashboard = new OperationsDashboard(this, 'Dashboard', {
      clusterName: props.clusterName,
      metrics,
      alarms: this.alarms.all(),
    });
    this.karpenterDashboard = new KarpenterDashboard(this, 'KarpenterDashboard', {
      clusterName: props.clusterName,
    });
  }
}

/** The VPC placement of the API-server-facing functions, when asked for; throws on half a setting. */
function clusterNetwork(scope: Construct, props: JoinerProps): ClusterNetwork | undefined {
  const { vpcId, functionSubnetIds, clusterSecurityGroupId } = props;
  if (!functionSubnetIds?.length && !clusterSecurityGroupId) return undefined;
  if (!vpcId || !functionSubnetIds?.length || !clusterSecurityGroupId) {
    throw new Error(
      'joiner: running the functions in the cluster VPC needs vpcId, functionSubnetIds and clusterSecurityGroupId together (joiner:vpcId, joiner:functionSubnetIds, joiner:clusterSecurityGroupId)',
    );
  }
  return new ClusterNetwork(scope, 'Network', {
    vpcId,
    subnetIds: functionSubnetIds,
    clusterSecurityGroupId,
  });
}

function assertClusterName(name: string | undefined): void {
  if (name === undefined || name === '') {
    throw new Error(
      'joiner: the EKS cluster name is missing. Set "joiner:clusterName" in cdk.json context, ' +
        'pass -c joiner:clusterName=<name>, or give clusterName to the Joiner construct.',
    );
  }
  if (Token.isUnresolved(name) || !CLUSTER_NAME.test(name)) {
    throw new Error(
      `joiner: clusterName '${name}' is not a valid EKS cluster name (a literal of 1-100 letters, digits, '-' or '_').`,
    );
  }
}
