import { RemovalPolicy } from 'aws-cdk-lib';
import { AttributeType, BillingMode, ProjectionType, Table, TableEncryption } from 'aws-cdk-lib/aws-dynamodb';
import { Construct } from 'constructs';
import { type KeyAttribute, TABLE } from '../../functions/shared/table.js';

/** Properties of {@link StateTable}. */
export interface StateTableProps {
  /**
   * What happens to the table when it leaves the stack.
   * @default RemovalPolicy.RETAIN (nodeclaims outlive a mistaken `cdk destroy`)
   */
  readonly removalPolicy?: RemovalPolicy;
  /**
   * Whether DynamoDB refuses to delete the table.
   * @default true
   */
  readonly deletionProtection?: boolean;
}

const attribute = (key: KeyAttribute) => ({
  name: key.name,
  type: key.type === 'S' ? AttributeType.STRING : AttributeType.NUMBER,
});

/**
 * joiner's single DynamoDB table (nodeclaims, timers, unavailable offerings, leases), exactly as
 * the shared table description says: keys, the sparse instance-id and timer GSIs, the TTL
 * attribute, point-in-time recovery and deletion protection.
 */
export class StateTable extends Construct {
  /** The table. */
  readonly table: Table;

  constructor(scope: Construct, id: string, props: StateTableProps = {}) {
    super(scope, id);
    this.table = new Table(this, 'Table', {
      partitionKey: attribute(TABLE.partitionKey),
      sortKey: attribute(TABLE.sortKey),
      billingMode: BillingMode.PAY_PER_REQUEST,
      timeToLiveAttribute: TABLE.ttlAttribute,
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
      deletionProtection: props.deletionProtection ?? true,
      encryption: TableEncryption.AWS_MANAGED,
      removalPolicy: props.removalPolicy ?? RemovalPolicy.RETAIN,
    });
    for (const index of Object.values(TABLE.indexes)) {
      this.table.addGlobalSecondaryIndex({
        indexName: index.indexName,
        partitionKey: attribute(index.partitionKey),
        sortKey: index.sortKey ? attribute(index.sortKey) : undefined,
        projectionType: ProjectionType.ALL,
      });
    }
  }
}
