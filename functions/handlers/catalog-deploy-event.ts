/**
 * The deploy-time catalog refresh: a CloudFormation custom resource whose Provider framework
 * invokes the catalog function with the custom resource request. Shared by the handler, the CDK
 * construct and the simulator (which delivers the same request when it "deploys").
 */
import type { CloudFormationCustomResourceEvent } from 'aws-lambda';

/** The custom resource type of the deploy-time refresh. */
export const CATALOG_DEPLOY_RESOURCE_TYPE = 'Custom::JoinerCatalogRefresh';

/** The physical id of the deploy-time refresh resource (nothing to delete). */
export const CATALOG_DEPLOY_PHYSICAL_ID = 'joiner-catalog-snapshot';

/** Whether `event` is a custom resource request (Create, Update or Delete). */
export function isCustomResourceEvent(event: unknown): event is CloudFormationCustomResourceEvent {
  return (
    typeof event === 'object' &&
    event !== null &&
    'RequestType' in event &&
    'ResourceType' in event &&
    typeof (event as { RequestType: unknown }).RequestType === 'string'
  );
}

/** The Create request the Provider framework sends at the first deployment (what the simulator delivers). */
export function catalogDeployCreateEvent(region: string, account: string, snapshotVersion: number) {
  return {
    RequestType: 'Create',
    ServiceToken: `arn:aws:lambda:${region}:${account}:function:joiner-catalog-provider`,
    ResponseURL: 'https://cloudformation-custom-resource-response.invalid/',
    StackId: `arn:aws:cloudformation:${region}:${account}:stack/joiner/00000000-0000-0000-0000-000000000000`,
    RequestId: 'deploy',
    LogicalResourceId: 'CatalogInitialRefresh',
    ResourceType: CATALOG_DEPLOY_RESOURCE_TYPE,
    ResourceProperties: {
      ServiceToken: `arn:aws:lambda:${region}:${account}:function:joiner-catalog-provider`,
      SnapshotVersion: String(snapshotVersion),
    },
  } satisfies CloudFormationCustomResourceEvent;
}
