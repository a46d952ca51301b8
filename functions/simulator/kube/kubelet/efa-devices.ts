/**
 * The EFA devices a node advertises, as the EFA device plugin reports them: one
 * `vpc.amazonaws.com/efa` per EFA interface the instance was launched with (`efa` or `efa-only`).
 * A node of an EFA-capable type launched without EFA interfaces advertises none, so a pod that
 * requests EFA stays pending on it, as on a real node.
 */
import { EFA } from '../../../core/model/resources.js';
import type { SimNetworkInterface } from '../../instance.js';

/** EFA interfaces among an instance's network interfaces. */
export function efaDevices(interfaces: readonly Pick<SimNetworkInterface, 'interfaceType'>[]): number {
  return interfaces.filter((i) => i.interfaceType === 'efa' || i.interfaceType === 'efa-only').length;
}

/** `resources` with `vpc.amazonaws.com/efa` set to the instance's EFA devices, or removed when it has none. */
export function withEfaDevices(
  resources: Readonly<Record<string, string>>,
  interfaces: readonly Pick<SimNetworkInterface, 'interfaceType'>[],
): Record<string, string> {
  const { [EFA]: _fromType, ...rest } = resources;
  const devices = efaDevices(interfaces);
  return devices > 0 ? { ...rest, [EFA]: String(devices) } : rest;
}
