import { Template } from 'aws-cdk-lib/assertions';
import { Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { Code, Function as LambdaFunction, Runtime } from 'aws-cdk-lib/aws-lambda';
import { describe, expect, it } from 'vitest';
import { CATALOG_DEPLOY_RESOURCE_TYPE } from '../../functions/handlers/catalog-deploy-event.js';
import {
  CATALOG_SPOT_SCHEDULE,
  CATALOG_TYPES_SCHEDULE,
  scheduleExpression,
} from '../../functions/shared/event-sources.js';
import { CATALOG_READ_ACTIONS, CatalogRefresh } from '../../lib/constructs/catalog-refresh.js';
import { StateTable } from '../../lib/constructs/state-table.js';
import { actionsOf, bareStack, resourcesOf, type statementsOf } from './stack-fixture.js';

/** Every EC2 / Pricing call the catalog adapters make (functions/adapters/aws/*-reader.ts). */
const CALLS_MADE = [
  'ec2:DescribeInstanceTypes',
  'ec2:DescribeInstanceTypeOfferings',
  'ec2:DescribeAvailabilityZones',
  'ec2:DescribeSpotPriceHistory',
  'pricing:GetProducts',
];

describe('CatalogRefresh', () => {
  const stack = bareStack();
  const table = new StateTable(stack, 'State').table;
  const role = new Role(stack, 'Role', { assumedBy: new ServicePrincipal('lambda.amazonaws.com') });
  const fn = new LambdaFunction(stack, 'Fn', {
    runtime: Runtime.NODEJS_22_X,
    handler: 'index.handler',
    code: Code.fromInline('exports.handler = async () => undefined;'),
    role,
  });
  new CatalogRefresh(stack, 'Catalog', { function: fn, role, table });
  const template = Template.fromStack(stack);
  const policy = resourcesOf(template, 'AWS::IAM::Policy').find(([id]) => id.startsWith('CatalogPolicy'));
  if (!policy) throw new Error('no CatalogPolicy in the template');
  const statements = (policy[1].Properties.PolicyDocument as unknown as { Statement: never[] })
    .Statement as ReturnType<typeof statementsOf>;

  it('grants exactly the describe and pricing calls the refresh makes', () => {
    const read = statements.find((s) => s.Sid === 'ReadInstanceTypesAndPrices');
    expect([...actionsOf(read as never)].sort()).toEqual([...CALLS_MADE].sort());
    expect([...CATALOG_READ_ACTIONS].sort()).toEqual([...CALLS_MADE].sort());
    expect(read?.Resource).toBe('*');
  });

  it('writes only the snapshot items of the state table', () => {
    const write = statements.find((s) => s.Sid === 'ReadWriteCatalogSnapshot');
    expect(actionsOf(write as never)).toEqual(['dynamodb:BatchGetItem', 'dynamodb:PutItem']);
    expect(write?.Condition).toEqual({
      'ForAllValues:StringEquals': { 'dynamodb:LeadingKeys': ['catalog'] },
    });
    expect(JSON.stringify(write?.Resource)).toContain('State');
    expect(statements).toHaveLength(2);
  });

  it('invokes the function on the spot-price and whole-catalog schedules with their inputs', () => {
    const rules = resourcesOf(template, 'AWS::Events::Rule').map(
      ([, r]) => r.Properties as Record<string, any>,
    );
    expect(rules.map((r) => r.ScheduleExpression).sort()).toEqual(
      [scheduleExpression(CATALOG_SPOT_SCHEDULE), scheduleExpression(CATALOG_TYPES_SCHEDULE)].sort(),
    );
    expect(scheduleExpression(CATALOG_SPOT_SCHEDULE)).toBe('rate(5 minutes)');
    expect(scheduleExpression(CATALOG_TYPES_SCHEDULE)).toBe('rate(6 hours)');
    const inputs = rules
      .map((r) => JSON.parse(r.Targets[0].Input))
      .sort((a, b) => a.refresh.localeCompare(b.refresh));
    expect(inputs).toEqual([{ refresh: 'catalog' }, { refresh: 'spot-prices' }]);
  });

  it('refreshes once at deploy time through a custom resource, after the grants exist', () => {
    const [[, resource]] = Object.entries(template.findResources(CATALOG_DEPLOY_RESOURCE_TYPE)) as [
      [string, { DependsOn?: string[] }],
    ];
    expect(resource.DependsOn?.some((d) => d.startsWith('CatalogPolicy'))).toBe(true);
  });
});
