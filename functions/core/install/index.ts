export { nodeClassCrd, nodePoolCrd } from './crds.js';
export {
  INSTALL_POLICY_ANNOTATION,
  karpenterCrds,
  NODE_POOL_SCALE,
  UNLESS_PRESENT,
} from './karpenter-crds.js';
export { JOINER_API_GROUP, JOINER_MANAGED_LABELS, type KubeManifest } from './kube-manifest.js';
export {
  installsJoinerNodePools,
  type JoinerManifestOptions,
  joinerManifests,
  WEBHOOK_SECRET_PLACEHOLDER,
  withWebhookSecret,
} from './manifests.js';
export { type MatchCondition, MULTUS_POD_LABEL } from './match-conditions.js';
export { CONTROLLER_ROLE_NAME, DEFAULT_LAMBDA_GROUP } from './rbac.js';
export { WEBHOOK_CONFIGURATION_NAME, type WebhookEndpoint } from './webhook-configuration.js';
