/**
 * What the scenario tests read back from the simulated cluster's store: status conditions and
 * core/v1 Events, in the shape the assertions need.
 */
import type { SimulatedCloud } from '../../functions/simulator/cloud.js';

/** A status condition as the e2e cases read it. */
export interface Condition {
  type: string;
  status: string;
  reason: string;
  message: string;
}
/** A core/v1 Event as the e2e cases read it. */
export interface Event {
  involvedObject: { kind: string; name: string };
  type: string;
  reason: string;
  message: string;
}

/** The status conditions of the cluster-scoped object `default` of that kind. */
export const conditionsOf = (cloud: SimulatedCloud, apiVersion: string, kind: string): Condition[] =>
  (cloud.kube.store.get(apiVersion, kind, 'default') as { status?: { conditions?: Condition[] } } | undefined)
    ?.status?.conditions ?? [];
/** The Ready condition among `conditions`, if any. */
export const ready = (conditions: Condition[]): Condition | undefined =>
  conditions.find((c) => c.type === 'Ready');
