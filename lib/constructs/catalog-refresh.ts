import { CustomResource, Duration, Validations } from 'aws-cdk-lib';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { Rule, Schedule } from 'aws-cdk-lib/aws-events';
import { LambdaFunction } from 'aws-cdk-lib/aws-events-targets';
import { type IRole, Policy, PolicyStatement } from 'aws-cdk-lib/aws-iam';
import type { Function as LambdaFunctionResource } from 'aws-cdk-lib/aws-lambda';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import { Provider } from 'aws-cdk-lib/custom-resources';
import { Construct } from 'constructs';
import { PK } from '../../functions/adapters/store/items.js';
import { SNAPSHOT_VERSION } from '../../functions/core/catalog/live/catalog-snapshot.js';
import { CATALOG_DEPLOY_RESOURCE_TYPE } from '../../functions/handlers/catalog-deploy-event.js';
import {
  CATALOG_SPOT_SCHEDULE,
  CATALOG_TYPES_SCHEDULE,
  type ScheduleSpec,
} from '../../functions/shared/event-sources.js';
import { acknowledgeProviderFramework, runLikeJoinerFunctions } from './cluster-installer.js';
import { applyTargetInput } from './target-input.js';

/** Exactly the calls the catalog refresh makes to read the region's instance types and prices. */
export const CATALOG_READ_ACTIONS = [
  'ec2:DescribeAvailabilityZones',
  'ec2:DescribeInstanceTypeOfferings',
  'ec2:DescribeInstanceTypes',
  'ec2:DescribeSpotPriceHistory',
  'pricing:GetProducts',
] as const;

/** Exactly the calls the catalog refresh makes on the state table (its snapshot items only). */
export const CATALOG_TABLE_ACTIONS = ['dynamodb:BatchGetItem', 'dynamodb:PutItem'] as const;

/** Properties of {@link CatalogRefresh}. */
export interface CatalogRefreshProps {
  /** The catalog refresh function. */
  readonly function: LambdaFunctionResource;
  /** Its role. */
  readonly role: IRole;
  /** The state table that holds the snapshot. */
  readonly table: ITable;
  /** Where a scheduled invocation EventBridge could not make after its retries goes. */
  readonly deadLetterQueue?: IQueue;
}

/**
 * The live instance catalog: the refresh function on two EventBridge schedules (spot prices every
 * few minutes, instance types / offerings / on-demand prices a few times a day), one refresh at
 * deploy time (a custom resource; a failing refresh never fails the deployment: the functions
 * plan with the bundled catalog until a refresh succeeds), and the refresh role's least-privilege
 * grants: the four EC2 describe calls and pricing:GetProducts, and on the table only reading and
 * writing the items whose partition key is the snapshot's.
 */
export class CatalogRefresh extends Construct {
  /** The schedule rules (spot prices, whole catalog). */
  readonly rules: readonly Rule[];
  readonly policy: Policy;
  /** The custom resource that runs the first refresh at deploy time. */
  readonly initialRefresh: CustomResource;

  constructor(scope: Construct, id: string, props: CatalogRefreshProps) {
    super(scope, id);
    this.rules = [CATALOG_SPOT_SCHEDULE, CATALOG_TYPES_SCHEDULE].map((spec) => this.schedule(spec, props));
    this.policy = new Policy(this, 'Policy', {
      statements: [
        new PolicyStatement({
          sid: 'ReadInstanceTypesAndPrices',
          actions: [...CATALOG_READ_ACTIONS],
          resources: ['*'],
        }),
        new PolicyStatement({
          sid: 'ReadWriteCatalogSnapshot',
          actions: [...CATALOG_TABLE_ACTIONS],
          resources: [props.table.tableArn],
          conditions: { 'ForAllValues:StringEquals': { 'dynamodb:LeadingKeys': [PK.catalog] } },
        }),
      ],
    });
    props.role.attachInlinePolicy(this.policy);
    Validations.of(this.policy).acknowledge({
      id: 'AwsSolutions-IAM5[Resource::*]',
      reason:
        'EC2 Describe* calls and pricing:GetProducts do not support resource-level permissions; these are read-only.',
    });
    // The first refresh at deploy time: a custom resource whose Create (and Update, when the
    // snapshot format changes) runs a whole refresh; the handler never fails it.
    const provider = new Provider(this, 'Provider', {
      onEventHandler: props.function,
      logGroup: new LogGroup(this, 'ProviderLogs', { retention: RetentionDays.ONE_MONTH }),
    });
    runLikeJoinerFunctions(provider);
    acknowledgeProviderFramework(provider, props.function);
    this.initialRefresh = new CustomResource(this, 'InitialRefresh', {
      serviceToken: provider.serviceToken,
      resourceType: CATALOG_DEPLOY_RESOURCE_TYPE,
      properties: { SnapshotVersion: String(SNAPSHOT_VERSION) },
    });
    this.initialRefresh.node.addDependency(this.policy);
  }

  private schedule(spec: ScheduleSpec, props: CatalogRefreshProps): Rule {
    const rule = new Rule(this, spec.id, {
      description: `joiner instance catalog refresh (${spec.id})`,
      schedule: Schedule.rate(Duration.minutes(spec.rateMinutes)),
    });
    rule.addTarget(
      new LambdaFunction(props.function, {
        retryAttempts: spec.retryAttempts,
        maxEventAge: Duration.seconds(spec.maxEventAgeSeconds),
        ...(props.deadLetterQueue ? { deadLetterQueue: props.deadLetterQueue } : {}),
      }),
    );
    applyTargetInput(rule, spec.input);
    return rule;
  }
}
