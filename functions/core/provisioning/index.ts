export { dedupeHints, provision } from './provision.js';
export type {
  FailedClaimResult,
  LaunchedClaimResult,
  ProvisionDeps,
  ProvisionInput,
  ProvisionOptions,
  ProvisionResult,
  UnschedulableResult,
} from './types.js';
