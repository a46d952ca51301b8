/**
 * joiner's ports with chaos: DynamoDB throttling past the SDK's retries, and a crash at each step of a launch and of a drain (the
 * invocation dies there once: the port call that precedes the crash point has happened, nothing
 * after it does). Every decision is drawn from a seeded random source, and every fault counted.
 */
import type { NodeClaim } from '../../../functions/core/nodeclaim/nodeclaim.js';
import type { CloudProvider } from '../../../functions/core/ports/cloud-provider.js';
import type { ClusterApi, NodePatch } from '../../../functions/core/ports/cluster-api.js';
import { ConflictError, type StateStore } from '../../../functions/core/ports/state-store.js';

/** The crash points of a launch and of a drain. */
export const CRASH_POINTS = [
  'after the claim write',
  'after the launch template',
  'after CreateFleet',
  'before the state update',
  'after the taint',
  'between evictions',
  'after TerminateInstances',
  'before the claim is retired',
] as const;
export type CrashPoint = (typeof CRASH_POINTS)[number];

/** A crash of the invocation at a crash point. */
export class ChaosCrash extends Error {
  constructor(readonly point: CrashPoint) {
    super(`chaos: the function crashed ${point}`);
    this.name = 'ChaosCrash';
  }
}

/** Rates of the random faults at the ports. */
export interface ChaosRates {
  /** Share of DynamoDB calls throttled past the SDK's retries. */
  readonly dynamoThrottle: number;
}

/** What the chaos did, counted. */
export class ChaosLedger {
  kube5xx = 0;
  dynamoThrottled = 0;
  conditionalFailures = 0;
  readonly crashes = new Set<CrashPoint>();
  private readonly armed = new Set<CrashPoint>(CRASH_POINTS.filter((p) => p !== 'after the launch template'));

  /** Whether the crash at `point` fires now (once per run). */
  fire(point: CrashPoint): boolean {
    if (!this.armed.delete(point)) return false;
    this.crashes.add(point);
    return true;
  }
}

type Hook = (method: string, args: unknown[], call: () => Promise<unknown>) => Promise<unknown>;

function wrap<T extends object>(target: T, hook: Hook): T {
  return new Proxy(target, {
    get(t, prop, receiver) {
      const value = Reflect.get(t, prop, receiver);
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => hook(String(prop), args, () => value.apply(t, args));
    },
  });
}

/**
 * The Kubernetes API with the drain's crash points. Its 5xx answers come from the simulated API
 * server itself (fault injection on the wire), so the adapter's handling of them is tested too.
 */
export function chaosCluster(cluster: ClusterApi, ledger: ChaosLedger) {
  return wrap(cluster, async (method, args, call) => {
    const result = await call();
    if (method === 'patchNode') {
      const patch = args[1] as NodePatch;
      const tainted = (patch.taints ?? []).some((t) => t.key === 'karpenter.sh/disrupted');
      if (tainted && ledger.fire('after the taint')) throw new ChaosCrash('after the taint');
    }
    if (method === 'evictPod' && ledger.fire('between evictions')) throw new ChaosCrash('between evictions');
    return result;
  });
}

/** The state store with throttling, counted conditional failures and the claim's crash points. */
export function chaosStore(store: StateStore, draw: () => number, rates: ChaosRates, ledger: ChaosLedger) {
  return wrap(store, async (method, args, call) => {
    if (draw() < rates.dynamoThrottle) {
      ledger.dynamoThrottled++;
      throw Object.assign(new Error(`chaos: ${method}: ProvisionedThroughputExceededException`), {
        name: 'ProvisionedThroughputExceededException',
      });
    }
    if (method === 'updateNodeClaim') {
      const claim = args[0] as NodeClaim;
      if (claim.state === 'Launched' && ledger.fire('before the state update'))
        throw new ChaosCrash('before the state update');
      if (claim.state === 'Gone' && ledger.fire('before the claim is retired'))
        throw new ChaosCrash('before the claim is retired');
    }
    let result: unknown;
    try {
      result = await call();
    } catch (error) {
      if (error instanceof ConflictError) ledger.conditionalFailures++;
      throw error;
    }
    if (method === 'createNodeClaim' && result === false) ledger.conditionalFailures++;
    if (method === 'acquireLease' && result === undefined) ledger.conditionalFailures++;
    if (method === 'createNodeClaim' && result === true && ledger.fire('after the claim write'))
      throw new ChaosCrash('after the claim write');
    return result;
  });
}

/** The cloud provider with the crash points after CreateFleet and after TerminateInstances. */
export function chaosCloud(cloud: CloudProvider, ledger: ChaosLedger) {
  return wrap(cloud, async (method, _args, call) => {
    const result = await call();
    if (method === 'launch' && ledger.fire('after CreateFleet')) throw new ChaosCrash('after CreateFleet');
    if (method === 'terminate' && ledger.fire('after TerminateInstances'))
      throw new ChaosCrash('after TerminateInstances');
    return result;
  });
}
