import type { CdkCustomResourceEvent, CdkCustomResourceResponse, Context } from 'aws-lambda';
import { createSecretsManagerClient, readSecret } from '../adapters/aws/secret-reader.js';
import { kubeClientSource } from '../adapters/kube/create-cluster-api.js';
import { statusOf } from '../adapters/kube/kube-errors.js';
import { KubeManifestApplier, type ManifestApi } from '../adapters/kube/manifest-applier.js';
import { INSTALL_POLICY_ANNOTATION, UNLESS_PRESENT } from '../core/install/karpenter-crds.js';
import { JOINER_MANAGED_LABELS, type KubeManifest } from '../core/install/kube-manifest.js';
import { WEBHOOK_SECRET_PLACEHOLDER, withWebhookSecret } from '../core/install/manifests.js';
import { WEBHOOK_CONFIGURATION_NAME } from '../core/install/webhook-configuration.js';
import { systemClock } from '../core/ports/clock.js';
import type { Log } from '../core/ports/log.js';
import { type InstallRequest, manifestKey, parseInstallProperties } from './runtime/installer-properties.js';
import { kubeConnectionOf } from './runtime/kube-connection.js';
import { lambdaHandler, logger } from './runtime/lambda.js';
import { powertoolsLog } from './runtime/log.js';
import { settingsFromEnv } from './runtime/settings.js';

/** What the installer needs: a way to apply/delete manifests, the webhook secret, a log. */
export interface InstallerDeps {
  readonly log: Log;
  /** The applier for the cluster named in the request. */
  readonly manifests: (clusterName: string) => ManifestApi;
  /** Reads the webhook secret by ARN. */
  readonly secret: (arn: string) => Promise<string>;
  /** Waits between tries while the cluster does not accept the installer yet. @default wall clock */
  readonly sleep?: (ms: number) => Promise<void>;
}

/**
 * Waits before each new try while the API server answers 401 / 403 to the installer's first
 * call: the EKS access entry the same deploy just created takes a while to be honoured. About
 * two minutes in all, well inside the function's 5-minute timeout.
 */
export const ACCESS_ENTRY_DELAYS_MS: readonly number[] = [1000, 2000, 4000, 8000, 15_000, 30_000, 60_000];

/**
 * `api` whose calls, until one succeeds, are retried after {@link ACCESS_ENTRY_DELAYS_MS} when the
 * API server refuses the credentials (401) or the identity (403). Once a call went through, the
 * access entry is in effect: a later 401 / 403 is an error like any other.
 */
export function waitingForAccess(
  api: ManifestApi,
  log: Log,
  sleep: (ms: number) => Promise<void>,
): ManifestApi {
  let admitted = false;
  const call = async <T>(fn: () => Promise<T>): Promise<T> => {
    for (let i = 0; ; i++) {
      try {
        const out = await fn();
        admitted = true;
        return out;
      } catch (error) {
        const status = statusOf(error);
        const delay = ACCESS_ENTRY_DELAYS_MS[i];
        if (admitted || (status !== 401 && status !== 403) || delay === undefined) throw error;
        log.warn('the API server does not accept the installer yet (new access entry), retrying', {
          status,
          'retry-in-ms': delay,
        });
        await sleep(delay);
      }
    }
  };
  return {
    apply: (m) => call(() => api.apply(m)),
    delete: (m) => call(() => api.delete(m)),
    get: (m) => call(() => api.get(m)),
  };
}

const wallSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** The stable physical id of the installation of a cluster. */
export function physicalResourceId(clusterName: string): string {
  return `joiner-install-${clusterName}`;
}

/**
 * Handles one CloudFormation custom resource event. Create/Update apply joiner's manifests (the
 * webhook secret filled in), then the user's documents, and delete what an update dropped;
 * Delete removes the webhook configuration first (the API server stops calling joiner), then
 * the rest in reverse order, ignoring what is already gone.
 */
export async function handleInstallerEvent(
  deps: InstallerDeps,
  event: CdkCustomResourceEvent,
): Promise<CdkCustomResourceResponse> {
  const request = parseInstallProperties(event.ResourceProperties);
  const api = waitingForAccess(deps.manifests(request.clusterName), deps.log, deps.sleep ?? wallSleep);
  const id = physicalResourceId(request.clusterName);
  if (event.RequestType === 'Delete') {
    await removeAll(api, deps.log, [...request.manifests, ...request.documents]);
    return { PhysicalResourceId: event.PhysicalResourceId || id };
  }
  const objects = [...(await withSecret(deps, request)), ...request.documents];
  let created = 0;
  const leftAlone: string[] = [];
  for (const manifest of objects) {
    if (await ownedByOthers(api, manifest)) {
      leftAlone.push(manifestKey(manifest));
      continue;
    }
    if ((await api.apply(manifest)) === 'created') created++;
  }
  if (event.RequestType === 'Update') await removeDropped(api, deps.log, event, objects);
  deps.log.info('installed joiner into the cluster', {
    cluster: request.clusterName,
    objects: objects.length,
    created,
    ...(leftAlone.length > 0 ? { 'left-as-installed': leftAlone.join(', ') } : {}),
  });
  return { PhysicalResourceId: id, Data: { Objects: String(objects.length) } };
}

async function withSecret(deps: InstallerDeps, request: InstallRequest): Promise<KubeManifest[]> {
  const needsSecret = JSON.stringify(request.manifests).includes(WEBHOOK_SECRET_PLACEHOLDER);
  if (!needsSecret) return request.manifests;
  if (!request.webhookSecretArn)
    throw new Error('property WebhookSecretArn is missing: the webhook URLs need the secret');
  return withWebhookSecret(request.manifests, await deps.secret(request.webhookSecretArn));
}

async function removeDropped(
  api: ManifestApi,
  log: Log,
  event: Extract<CdkCustomResourceEvent, { RequestType: 'Update' }>,
  kept: readonly KubeManifest[],
): Promise<void> {
  let old: InstallRequest;
  try {
    old = parseInstallProperties(event.OldResourceProperties);
  } catch {
    return;
  }
  const keep = new Set(kept.map(manifestKey));
  const dropped = [...old.manifests, ...old.documents].filter((m) => !keep.has(manifestKey(m)));
  // A CRD an update no longer installs (joiner's NodePool kind once joiner manages Karpenter's
  // kinds) stays: deleting it would delete every object of its kind, the user's NodePools.
  for (const crd of dropped.filter(isCrd))
    log.warn('left in place: deleting this CRD would delete its objects; move them and delete it', {
      object: manifestKey(crd),
    });
  await removeAll(
    api,
    log,
    dropped.filter((m) => !isCrd(m)),
  );
}

const isCrd = (m: KubeManifest) => m.kind === 'CustomResourceDefinition';

/**
 * True when `manifest` is installed only where absent (Karpenter's CRDs) and the live object is not
 * joiner's: Karpenter (or another installer) put it there, and joiner leaves it as it is.
 */
async function ownedByOthers(api: ManifestApi, manifest: KubeManifest): Promise<boolean> {
  if (manifest.metadata.annotations?.[INSTALL_POLICY_ANNOTATION] !== UNLESS_PRESENT) return false;
  const live = await api.get(manifest);
  if (!live) return false;
  const labels = live.metadata.labels ?? {};
  return !Object.entries(JOINER_MANAGED_LABELS).every(([key, value]) => labels[key] === value);
}

/**
 * Deletes the webhook configuration first, then the others in reverse install order; an object
 * installed only where absent is deleted only when it is joiner's.
 */
async function removeAll(api: ManifestApi, log: Log, manifests: readonly KubeManifest[]): Promise<void> {
  const isWebhook = (m: KubeManifest) =>
    m.kind === 'ValidatingWebhookConfiguration' && m.metadata.name === WEBHOOK_CONFIGURATION_NAME;
  const ordered = [...manifests.filter(isWebhook), ...manifests.filter((m) => !isWebhook(m)).reverse()];
  for (const manifest of ordered) {
    if (await ownedByOthers(api, manifest)) {
      log.info("not joiner's, left as installed", { object: manifestKey(manifest) });
      continue;
    }
    const deleted = await api.delete(manifest);
    log.info(deleted ? 'deleted' : 'already gone', { object: manifestKey(manifest) });
  }
}

/** The installer Lambda handler (the Provider framework's onEvent). */
export function createInstallerHandler(getDeps: () => InstallerDeps) {
  return lambdaHandler<CdkCustomResourceEvent, CdkCustomResourceResponse>(
    async (event: CdkCustomResourceEvent, _context: Context) => handleInstallerEvent(getDeps(), event),
  );
}

/**
 * Installer dependencies from the Lambda environment. Built here rather than through the other
 * functions' `dependenciesFromEnv`, so the installer's bundle holds none of the adapters it never
 * uses (state table, EC2, queues, bus, instance catalog).
 */
export function installerDependenciesFromEnv(
  env: NodeJS.ProcessEnv,
  overrides: Pick<Partial<InstallerDeps>, 'log'> = {},
): InstallerDeps {
  const settings = settingsFromEnv({ ...env });
  const log = overrides.log ?? powertoolsLog(logger);
  const clients = new Map<string, ReturnType<typeof createSecretsManagerClient>>();
  return {
    log,
    manifests: (clusterName) => {
      const connection = kubeConnectionOf(settings, clusterName);
      return new KubeManifestApplier(kubeClientSource(connection, systemClock), { log });
    },
    // Read on every event, never from a warm container's cache: a redeploy after a rotation must
    // install the secret's current value.
    secret: (arn) => {
      let client = clients.get(arn);
      if (!client) {
        client = createSecretsManagerClient(
          settings.region,
          settings.credentials,
          settings.endpoints.secretsManager,
        );
        clients.set(arn, client);
      }
      return readSecret(client, arn);
    },
  };
}

export const handler = createInstallerHandler(() => installerDependenciesFromEnv(process.env));
