import { Fn, Stack, Validations } from 'aws-cdk-lib';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import type { IEventBus } from 'aws-cdk-lib/aws-events';
import { PolicyStatement, Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import type { Code, Function as LambdaFunction } from 'aws-cdk-lib/aws-lambda';
import { Construct } from 'constructs';
import type { KarpenterKinds } from '../../functions/core/model/config/karpenter-kinds.js';
import type { BatchWindow } from '../../functions/core/provisioning/batch-window.js';
import { ENV } from '../../functions/shared/env.js';
import { FUNCTIONS, type FunctionName } from '../../functions/shared/event-sources.js';
import type { ClusterNetwork } from './cluster-network.js';
import { HandlerFunction, type LogLevel } from './handler-function.js';
import { nagAttribute } from './nag-findings.js';
import type { NodeRole } from './node-role.js';
import { type ReservedConcurrency, reservedConcurrencyOf } from './reserved-concurrency.js';
import type { WorkQueues } from './work-queues.js';

/** Properties of {@link JoinerFunctions}. */
export interface JoinerFunctionsProps {
  readonly clusterName: string;
  /** API server endpoint; when omitted the functions call eks:DescribeCluster once per cold start. */
  readonly clusterEndpoint?: string;
  /** Base64 cluster CA; when omitted the functions call eks:DescribeCluster once per cold start. */
  readonly clusterCertificateAuthority?: string;
  /** Kubernetes minor version (e.g. `1.31`); when omitted the functions call eks:DescribeCluster. */
  readonly kubernetesVersion?: string;
  /** Service CIDR of the cluster; when omitted the functions call eks:DescribeCluster. */
  readonly serviceCidr?: string;
  /**
   * Whether joiner acts on NodePools of Karpenter's kinds (karpenter.sh NodePool, Provisioner):
   * `manage`, or `ignore` while a Karpenter controller runs in the cluster (joiner then acts only
   * on joiner.sh NodePools). @default 'manage'
   */
  readonly karpenterKinds?: KarpenterKinds;
  /**
   * The provisioner's batch window, as Karpenter's batcher: a run plans once `idleMs` passed
   * without a new pending pod, or `maxMs` after the first. @default 1 s idle, 10 s max
   */
  readonly batchWindow?: BatchWindow;
  readonly table: ITable;
  readonly bus: IEventBus;
  readonly queues: WorkQueues;
  readonly nodeRole: NodeRole;
  /** @default 'INFO' */
  readonly logLevel?: LogLevel;
  /**
   * Where the functions that call the Kubernetes API server (installer, provisioner, lifecycle,
   * interruption, disruption) run, for private endpoints. @default outside any VPC
   */
  readonly network?: ClusterNetwork;
  /** Reserved concurrency of the functions ({@link ReservedConcurrency}). @default 'none' */
  readonly reservedConcurrency?: ReservedConcurrency;
  /**
   * Code per function, instead of bundling the handlers (pre-built bundles, or stubs in tests).
   * @default each handler bundled with esbuild
   */
  readonly code?: (name: FunctionName) => Code;
}

/**
 * joiner's seven Lambda functions and their four roles: the controller role (provisioner,
 * lifecycle, interruption, disruption: cluster, EC2, table, queues), the webhook role (publish to
 * the bus, read its secret), the installer role (apply manifests at deploy time) and the catalog
 * role (read instance types and prices, write the catalog snapshot).
 */
export class JoinerFunctions extends Construct {
  /** Role of the provisioner, lifecycle, interruption and disruption functions. */
  readonly controllerRole: Role;
  readonly webhookRole: Role;
  readonly installerRole: Role;
  /** Role of the catalog refresh (its grants: {@link CatalogRefresh}). */
  readonly catalogRole: Role;
  /** The functions by name. */
  readonly functions: Readonly<Record<FunctionName, LambdaFunction>>;

  constructor(scope: Construct, id: string, props: JoinerFunctionsProps) {
    super(scope, id);
    const lambdaRole = (roleId: string, description: string) =>
      new Role(this, roleId, { assumedBy: new ServicePrincipal('lambda.amazonaws.com'), description });
    this.controllerRole = lambdaRole('ControllerRole', `joiner controller functions of ${props.clusterName}`);
    this.webhookRole = lambdaRole('WebhookRole', `joiner webhook of ${props.clusterName}`);
    this.installerRole = lambdaRole('InstallerRole', `joiner installer of ${props.clusterName}`);
    this.catalogRole = lambdaRole('CatalogRole', `joiner instance catalog refresh of ${props.clusterName}`);
    this.grantAccess(props);
    const roles: Record<FunctionName, Role> = {
      webhook: this.webhookRole,
      installer: this.installerRole,
      provisioner: this.controllerRole,
      lifecycle: this.controllerRole,
      interruption: this.controllerRole,
      disruption: this.controllerRole,
      catalog: this.catalogRole,
    };
    const environment = this.environment(props);
    const names = Object.keys(FUNCTIONS) as FunctionName[];
    this.functions = Object.fromEntries(
      names.map((name) => {
        const handler = new HandlerFunction(this, capitalize(name), {
          name,
          role: roles[name],
          environment:
            name === 'webhook'
              ? { [ENV.busName]: props.bus.eventBusName }
              : name === 'catalog'
                ? { [ENV.tableName]: props.table.tableName }
                : environment,
          logLevel: props.logLevel,
          reservedConcurrency: reservedConcurrencyOf(props.reservedConcurrency, name),
          ...(props.network && API_SERVER_CALLERS.includes(name) ? { network: props.network } : {}),
          code: props.code?.(name),
        });
        return [name, handler.function];
      }),
    ) as Record<FunctionName, LambdaFunction>;
  }

  private environment(props: JoinerFunctionsProps): Record<string, string> {
    const env: Record<string, string> = {
      [ENV.clusterName]: props.clusterName,
      [ENV.tableName]: props.table.tableName,
      [ENV.busName]: props.bus.eventBusName,
      [ENV.timersQueueUrl]: props.queues.queue('timers').queueUrl,
      [ENV.nodeRoleName]: props.nodeRole.role.roleName,
      [ENV.instanceProfileName]: props.nodeRole.instanceProfile.instanceProfileName,
      [ENV.nodeRoleArns]: Fn.join(',', [...props.nodeRole.passableRoleArns]),
    };
    if (props.clusterEndpoint) env[ENV.clusterEndpoint] = props.clusterEndpoint;
    if (props.clusterCertificateAuthority) env[ENV.clusterCa] = props.clusterCertificateAuthority;
    if (props.kubernetesVersion) env[ENV.kubernetesVersion] = props.kubernetesVersion;
    if (props.serviceCidr) env[ENV.serviceCidr] = props.serviceCidr;
    if (props.karpenterKinds) env[ENV.karpenterKinds] = props.karpenterKinds;
    if (props.batchWindow) {
      env[ENV.batchIdleSeconds] = String(props.batchWindow.idleMs / 1000);
      env[ENV.batchMaxSeconds] = String(props.batchWindow.maxMs / 1000);
    }
    return env;
  }

  private grantAccess(props: JoinerFunctionsProps): void {
    // The item and query calls joiner makes on its table and indexes; not grantReadWriteData, which
    // also grants stream reads (GetRecords, GetShardIterator) joiner never makes.
    props.table.grant(this.controllerRole, ...CONTROLLER_TABLE_ACTIONS);
    const tableResource = props.table.node.defaultChild;
    if (tableResource) {
      Validations.of(this.controllerRole).acknowledge({
        id: `AwsSolutions-IAM5[Resource::${nagAttribute(tableResource)}/index/*]`,
        reason: "Queries of the table's own GSIs (instance id, timers); the grant is limited to this table.",
      });
    }
    props.bus.grantPutEventsTo(this.controllerRole);
    props.bus.grantPutEventsTo(this.webhookRole);
    props.queues.queue('timers').grantSendMessages(this.controllerRole);
    const cluster = Stack.of(this).formatArn({
      service: 'eks',
      resource: 'cluster',
      resourceName: props.clusterName,
    });
    this.installerRole.addToPrincipalPolicy(
      new PolicyStatement({ sid: 'DescribeCluster', actions: ['eks:DescribeCluster'], resources: [cluster] }),
    );
  }
}

/** What the controller functions may do on the state table and its indexes. */
const CONTROLLER_TABLE_ACTIONS = [
  'dynamodb:BatchGetItem',
  'dynamodb:BatchWriteItem',
  'dynamodb:ConditionCheckItem',
  'dynamodb:DeleteItem',
  'dynamodb:DescribeTable',
  'dynamodb:GetItem',
  'dynamodb:PutItem',
  'dynamodb:Query',
  'dynamodb:Scan',
  'dynamodb:UpdateItem',
] as const;

/** The functions that call the Kubernetes API server (the webhook and catalog refresh do not). */
export const API_SERVER_CALLERS: readonly FunctionName[] = [
  'installer',
  'provisioner',
  'lifecycle',
  'interruption',
  'disruption',
];

function capitalize(name: string): string {
  return name.charAt(0).toUpperCase() + name.slice(1);
}
