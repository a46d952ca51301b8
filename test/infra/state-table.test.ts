import { Template } from 'aws-cdk-lib/assertions';
import { describe, expect, it } from 'vitest';
import { TABLE } from '../../functions/shared/table.js';
import { StateTable } from '../../lib/constructs/state-table.js';
import { bareStack, resourcesOf } from './stack-fixture.js';

describe('StateTable', () => {
  const stack = bareStack();
  new StateTable(stack, 'State');
  const template = Template.fromStack(stack);
  const [[, table]] = resourcesOf(template, 'AWS::DynamoDB::Table');
  const props = table.Properties as Record<string, any>;

  it('has the keys, TTL attribute, recovery and protection of the shared description', () => {
    expect(props.KeySchema).toEqual([
      { AttributeName: TABLE.partitionKey.name, KeyType: 'HASH' },
      { AttributeName: TABLE.sortKey.name, KeyType: 'RANGE' },
    ]);
    expect(props.BillingMode).toBe('PAY_PER_REQUEST');
    expect(props.TimeToLiveSpecification).toEqual({ AttributeName: TABLE.ttlAttribute, Enabled: true });
    expect(props.PointInTimeRecoverySpecification).toEqual({ PointInTimeRecoveryEnabled: true });
    expect(props.DeletionProtectionEnabled).toBe(true);
    template.hasResource('AWS::DynamoDB::Table', { DeletionPolicy: 'Retain' });
  });

  it('has the sparse instance-id and timer GSIs with all attributes projected', () => {
    const indexes = props.GlobalSecondaryIndexes as Record<string, any>[];
    expect(indexes.map((i) => i.IndexName).sort()).toEqual(
      Object.values(TABLE.indexes)
        .map((i) => i.indexName)
        .sort(),
    );
    for (const description of Object.values(TABLE.indexes)) {
      const index = indexes.find((i) => i.IndexName === description.indexName);
      const keys = [{ AttributeName: description.partitionKey.name, KeyType: 'HASH' }];
      if (description.sortKey) keys.push({ AttributeName: description.sortKey.name, KeyType: 'RANGE' });
      expect(index?.KeySchema).toEqual(keys);
      expect(index?.Projection).toEqual({ ProjectionType: 'ALL' });
    }
    expect(props.AttributeDefinitions).toContainEqual({ AttributeName: 'dueAt', AttributeType: 'N' });
  });
});
