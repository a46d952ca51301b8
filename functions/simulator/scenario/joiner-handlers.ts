/**
 * joiner's real Lambda handlers, built for a simulated cloud: each gets the dependencies its
 * production entry point would read from the environment, with the cloud's endpoints, its virtual
 * clock and a log writing Karpenter-style lines.
 */
import { SNAPSHOT_VERSION } from '../../core/catalog/live/catalog-snapshot.js';
import { WEBHOOK_SECRET_PLACEHOLDER } from '../../core/install/index.js';
import { catalogDeployCreateEvent } from '../../handlers/catalog-deploy-event.js';
import { createCatalogRefreshHandler } from '../../handlers/catalog-refresh.js';
import { createDisruptionHandler } from '../../handlers/disruption.js';
import { createInstallerHandler, installerDependenciesFromEnv } from '../../handlers/installer.js';
import { createInterruptionHandler } from '../../handlers/interruption.js';
import { createLifecycleHandler } from '../../handlers/lifecycle.js';
import { createProvisionerHandler } from '../../handlers/provisioner.js';
import type { Dependencies } from '../../handlers/runtime/dependencies.js';
import { dependenciesFromEnv } from '../../handlers/runtime/dependencies.js';
import { lineLog } from '../../handlers/runtime/log.js';
import { ADAPTER_MODULES } from '../../handlers/runtime/port-dependencies.js';
import { refreshDependenciesFromEnv } from '../../handlers/runtime/refresh-dependencies.js';
import { createWebhookHandler } from '../../handlers/webhook.js';
import type { FunctionName } from '../../shared/event-sources.js';
import type { SimulatedCloud } from '../cloud.js';
import { ExecutionEnvironments } from '../runner/execution-environments.js';
import { functionClock } from '../runner/function-clock.js';
import type { FunctionHandler } from '../runner/lambda-runner.js';

/** The handler factories of the functions a simulation runs (the scenario does the installer's work). */
const FACTORIES = {
  webhook: createWebhookHandler,
  provisioner: createProvisionerHandler,
  lifecycle: createLifecycleHandler,
  interruption: createInterruptionHandler,
  disruption: createDisruptionHandler,
} satisfies Partial<Record<FunctionName, (getDeps: () => Dependencies) => unknown>>;

/** The functions a simulation runs (besides the catalog refresh). */
export const SIMULATED_FUNCTIONS = Object.keys(FACTORIES) as (keyof typeof FACTORIES)[];

/**
 * Sets joiner's handlers on the cloud's Lambda runner, each with its own Karpenter-style log, and
 * runs the deploy-time catalog refresh; resolves once their init is done.
 */
export async function installJoinerHandlers(
  cloud: SimulatedCloud,
  sink: (line: string) => void,
  options: { readonly level?: 'debug' | 'info' } = {},
): Promise<void> {
  // The handlers reach the simulated API server through a kubeconfig. Its reader (client-node) is
  // a dynamic import no deployed function makes; load it now, with the simulated functions' init,
  // so the first invocation does not pay for it. The AWS adapters a deployed function loads on its
  // first call to a service (a bundle chunk, milliseconds) are loaded now too: here they are
  // compiled from source on first import, which would take a wall second, many virtual ones.
  await Promise.all([
    import('../../adapters/kube/kubeconfig-file.js'),
    ...Object.values(ADAPTER_MODULES).map((load) => load()),
  ]);
  const clock = functionClock(cloud.clock, () => cloud.latency.retryJitter());
  for (const name of SIMULATED_FUNCTIONS) {
    const log = lineLog({ clock: cloud.clock, sink, name, level: options.level });
    // Each function signs with its own role's credentials, as Lambda gives them. Each of its
    // execution environments has its own log stream, which keeps its clients apart from the
    // others' (the dependencies are cached per environment variables, as in one Lambda process).
    const environments = new ExecutionEnvironments((index) => {
      const env = { ...cloud.envFor(name), AWS_LAMBDA_LOG_STREAM_NAME: logStreamName(index) };
      const deps = dependenciesFromEnv(env, { clock, log });
      return FACTORIES[name](() => deps) as FunctionHandler;
    });
    cloud.runner.setHandler(name, environments.handler);
  }
  const log = lineLog({ clock: cloud.clock, sink, name: 'catalog', level: options.level });
  const refreshDeps = refreshDependenciesFromEnv(cloud.envFor('catalog'), { clock: cloud.clock, log });
  cloud.runner.setHandler('catalog', createCatalogRefreshHandler(() => refreshDeps) as FunctionHandler);
  // What the deployment does once (the CatalogRefresh custom resource): the first refresh.
  const deploy = catalogDeployCreateEvent(
    cloud.region,
    cloud.controllerRoleArn.split(':')[4] ?? '',
    SNAPSHOT_VERSION,
  );
  await cloud.runner.invoke('catalog', deploy as never);
}

/** The log stream of execution environment `index`, in Lambda's `date/[version]id` form. */
function logStreamName(index: number): string {
  return `2024/01/01/[$LATEST]${index.toString(16).padStart(32, '0')}`;
}

/** The custom resource type of joiner's installation (lib/constructs/cluster-installer.ts). */
const INSTALL_RESOURCE_TYPE = 'Custom::JoinerClusterInstall';

/**
 * What the deployment does once the access entries exist: CloudFormation sends the installer
 * custom resource's Create event, and the installer function, with its own role, reads the
 * webhook's path secret from Secrets Manager, finds the API server with eks:DescribeCluster,
 * authenticates with an EKS token of its role and applies `manifests` (joiner's CRDs, RBAC and
 * webhook configuration, the secret a placeholder, as the stack passes them). Rejects when the
 * installation fails, as the stack would roll back.
 */
export async function runInstaller(
  cloud: SimulatedCloud,
  manifests: readonly unknown[],
  sink: (line: string) => void,
  options: { readonly level?: 'debug' | 'info' } = {},
): Promise<void> {
  if (!JSON.stringify(manifests).includes(WEBHOOK_SECRET_PLACEHOLDER))
    throw new Error('runInstaller: the manifests carry no webhook secret placeholder');
  const log = lineLog({ clock: cloud.clock, sink, name: 'installer', level: options.level });
  const deps = installerDependenciesFromEnv(cloud.envFor('installer'), { log });
  cloud.runner.setHandler('installer', createInstallerHandler(() => deps) as unknown as FunctionHandler);
  const account = cloud.controllerRoleArn.split(':')[4] ?? '';
  const stackId = `arn:aws:cloudformation:${cloud.region}:${account}:stack/joiner-${cloud.clusterName}/00000000-0000-0000-0000-000000000000`;
  await cloud.runner.invoke('installer', {
    RequestType: 'Create',
    ServiceToken: `arn:aws:lambda:${cloud.region}:${account}:function:joiner-install-provider`,
    ResponseURL: 'https://cloudformation-custom-resource-response.invalid/',
    StackId: stackId,
    RequestId: 'joiner-install',
    LogicalResourceId: 'InstallResource',
    ResourceType: INSTALL_RESOURCE_TYPE,
    ResourceProperties: {
      ServiceToken: `arn:aws:lambda:${cloud.region}:${account}:function:joiner-install-provider`,
      ClusterName: cloud.clusterName,
      Manifests: JSON.stringify(manifests),
      Documents: '[]',
      WebhookSecretArn: cloud.webhookSecret.arn,
    },
  } as never);
}
