import type { KarpenterKinds } from '../model/config/karpenter-kinds.js';
import { nodeClaimCrd, nodeClassCrd, nodePoolCrd } from './crds.js';
import { karpenterCrds } from './karpenter-crds.js';
import type { KubeManifest } from './kube-manifest.js';
import { controllerClusterRole, controllerClusterRoleBinding, DEFAULT_LAMBDA_GROUP } from './rbac.js';
import { assertWebhookEndpoint, webhookConfiguration } from './webhook-configuration.js';

/** What the manifests depend on. */
export interface JoinerManifestOptions {
  /** HTTPS URL of the webhook endpoint, secret path included. */
  readonly webhookUrl: string;
  /** Base64 PEM CA bundle of the endpoint; omit when its certificate is from a public CA. */
  readonly caBundle?: string;
  /** Kubernetes group of the Lambda role's EKS access entry. Default `joiner-controllers`. */
  readonly lambdaGroup?: string;
  /**
   * Whether joiner acts on Karpenter's NodePools (`manage`, the default) or only on its own
   * (`ignore`, beside a running Karpenter): decides whether joiner's own NodePool kind is installed.
   */
  readonly karpenterKinds?: KarpenterKinds;
}

/**
 * Whether `nodepools.joiner.sh` is installed: only where joiner leaves Karpenter's NodePools to a
 * running Karpenter (`karpenterKinds: ignore`) and so needs a NodePool kind Karpenter never reads.
 * Where joiner manages Karpenter's kinds, its pools are `nodepools.karpenter.sh` (Karpenter's CRD,
 * or the copy joiner installs), and a second `nodepools` resource would hide them: kubectl resolves
 * a bare `kubectl get nodepools` to the group first in API discovery, which orders equal-priority
 * CRD groups by name, so `joiner.sh` before `karpenter.sh`. With one `nodepools` resource per
 * cluster, a bare `kubectl get nodepools` lists every pool joiner manages under either setting.
 */
export function installsJoinerNodePools(karpenterKinds: KarpenterKinds | undefined): boolean {
  return karpenterKinds === 'ignore';
}

/**
 * Every Kubernetes object joiner installs into a cluster, in apply order: the CRDs (Karpenter's
 * NodePool, EC2NodeClass and NodeOverlay, which the installer creates only where Karpenter's own
 * are absent, then joiner's: its NodePool only beside Karpenter, see {@link installsJoinerNodePools}),
 * the RBAC of the Lambda functions, then the webhook configuration
 * (last, so events only flow once joiner can act on them).
 */
export function joinerManifests(options: JoinerManifestOptions): KubeManifest[] {
  const endpoint = { url: options.webhookUrl, caBundle: options.caBundle };
  if (!isUnresolved(options.webhookUrl)) assertWebhookEndpoint(endpoint);
  return [
    ...karpenterCrds(),
    ...(installsJoinerNodePools(options.karpenterKinds) ? [nodePoolCrd()] : []),
    nodeClassCrd(),
    nodeClaimCrd(),
    controllerClusterRole(),
    controllerClusterRoleBinding(options.lambdaGroup ?? DEFAULT_LAMBDA_GROUP),
    webhookConfiguration(endpoint),
  ];
}

/** The placeholder the deploy-time installer replaces with the webhook secret it reads. */
export const WEBHOOK_SECRET_PLACEHOLDER = '__JOINER_WEBHOOK_SECRET__';

/**
 * Replaces the webhook secret placeholder in every webhook URL. The stack synthesizes manifests
 * with the placeholder so the secret never appears in templates; the installer fills it in.
 */
export function withWebhookSecret(manifests: readonly KubeManifest[], secret: string): KubeManifest[] {
  if (!/^[A-Za-z0-9_-]{16,}$/.test(secret)) {
    throw new Error('the webhook secret must be at least 16 URL-safe characters (A-Z a-z 0-9 _ -)');
  }
  return JSON.parse(
    JSON.stringify(manifests).replaceAll(WEBHOOK_SECRET_PLACEHOLDER, secret),
  ) as KubeManifest[];
}

/** True for URLs that are only known at deploy time (CDK tokens, or the secret placeholder). */
function isUnresolved(url: string): boolean {
  return url.includes('${Token[') || url.includes(WEBHOOK_SECRET_PLACEHOLDER);
}
