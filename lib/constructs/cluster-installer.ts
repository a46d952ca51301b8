import { CustomResource, Stack, Validations } from 'aws-cdk-lib';
import { CfnFunction, type IFunction } from 'aws-cdk-lib/aws-lambda';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Provider } from 'aws-cdk-lib/custom-resources';
import type { IDependable } from 'constructs';
import { Construct } from 'constructs';
import type { KubeManifest } from '../../functions/core/install/index.js';
import { nagAttribute } from './nag-findings.js';

/** A NodePool / NodeClass YAML file to install, by name (for error messages) and content. */
export interface ClusterDocument {
  readonly file: string;
  readonly content: string;
}

/**
 * Properties the installer function receives (`event.ResourceProperties`). CloudFormation turns
 * every property value into a string, so structured values travel as JSON.
 */
export interface InstallerProperties {
  readonly ClusterName: string;
  /** JSON array of {@link KubeManifest}; webhook URLs carry `WEBHOOK_SECRET_PLACEHOLDER`. */
  readonly Manifests: string;
  /** JSON array of {@link ClusterDocument}: the user's NodePools / NodeClasses. */
  readonly Documents: string;
  /** Secrets Manager ARN of the webhook path secret, to fill into the webhook URLs. */
  readonly WebhookSecretArn: string;
  /**
   * Changes when the webhook secret was rotated (joiner:webhookSecretRotation), so the installer
   * runs again and writes the new secret into the webhook URLs.
   */
  readonly WebhookSecretRotation?: string;
}

/** Properties of {@link ClusterInstaller}. */
export interface ClusterInstallerProps {
  /** The installer function (it talks to the cluster through joiner's Kubernetes adapter). */
  readonly function: IFunction;
  readonly clusterName: string;
  /** From `joinerManifests()`. */
  readonly manifests: readonly KubeManifest[];
  /** @default none */
  readonly documents?: readonly ClusterDocument[];
  readonly webhookSecretArn: string;
  /** A label of the secret's current rotation; changing it re-installs the webhook URLs. @default none */
  readonly webhookSecretRotation?: string;
  /** What must exist before the installer runs (the EKS access entries). */
  readonly dependsOn?: readonly IDependable[];
}

/**
 * A CloudFormation custom resource (Provider framework) that applies joiner's CRDs, RBAC and
 * webhook configuration, and the configured NodePools / NodeClasses, on every deploy whose
 * content changed, and removes them when the stack is deleted.
 */
export class ClusterInstaller extends Construct {
  /** The custom resource. */
  readonly resource: CustomResource;

  constructor(scope: Construct, id: string, props: ClusterInstallerProps) {
    super(scope, id);
    const stack = Stack.of(this);
    const provider = new Provider(this, 'Provider', {
      onEventHandler: props.function,
      logGroup: new LogGroup(this, 'ProviderLogs', { retention: RetentionDays.ONE_MONTH }),
    });
    const properties: InstallerProperties = {
      ClusterName: props.clusterName,
      Manifests: stack.toJsonString(props.manifests),
      Documents: stack.toJsonString(props.documents ?? []),
      WebhookSecretArn: props.webhookSecretArn,
      ...(props.webhookSecretRotation ? { WebhookSecretRotation: props.webhookSecretRotation } : {}),
    };
    this.resource = new CustomResource(this, 'Resource', {
      serviceToken: provider.serviceToken,
      resourceType: 'Custom::JoinerClusterInstall',
      properties: { ...properties },
    });
    for (const dependency of props.dependsOn ?? []) this.resource.node.addDependency(dependency);
    runLikeJoinerFunctions(provider);
    acknowledgeProviderFramework(provider, props.function);
  }
}

/** The Provider framework's own function is plain JavaScript: run it like joiner's functions. */
export function runLikeJoinerFunctions(provider: Provider): void {
  for (const fn of provider.node.findAll().filter((c): c is CfnFunction => c instanceof CfnFunction)) {
    fn.addPropertyOverride('Runtime', 'nodejs22.x');
    fn.addPropertyOverride('Architectures', ['arm64']);
  }
}

/** The cdk-nag findings of a Provider framework fronting one of joiner's functions, with the reasons. */
export function acknowledgeProviderFramework(provider: Provider, installer: IFunction): void {
  const reason = (what: string) =>
    `${what} of the CDK Provider framework's own onEvent function, which CDK maintains.`;
  Validations.of(provider).acknowledge(
    { id: 'AwsSolutions-L1', reason: reason('Runtime') },
    {
      id: 'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole]',
      reason: reason('Logging policy'),
    },
  );
  const target = installer.node.defaultChild;
  if (target) {
    Validations.of(provider).acknowledge({
      id: `AwsSolutions-IAM5[Resource::${nagAttribute(target)}:*]`,
      reason: 'The Provider framework invokes any version of the function it fronts (CDK-generated grant).',
    });
  }
}
