/**
 * The hourly price of a simulated node: the price joiner launched it at (as its launch log line
 * says: NodeOverlay-adjusted when an overlay priced the offering), else the catalog offering its
 * labels name.
 */
import type { Catalog } from '../../core/model/instance-type.js';
import type { Node } from '../../core/model/kube-objects.js';
import { instanceIdOf } from './summary.js';
import type { NodePrice } from './timeline-recorder.js';

/**
 * Prices nodes by the launch price of their instance (`launched`, by instance id), else by
 * instance type, zone and capacity type (0 when the catalog has no such offering).
 */
export function nodePrice(catalog: Catalog, launched: ReadonlyMap<string, number> = new Map()): NodePrice {
  const prices = new Map<string, number>();
  for (const type of catalog.instanceTypes) {
    for (const o of type.offerings) prices.set(`${type.name}/${o.zone}/${o.capacityType}`, o.price);
  }
  return (node: Node) => {
    const decided = launched.get(instanceIdOf(node) ?? '');
    if (decided !== undefined) return decided;
    const labels = node.metadata.labels ?? {};
    const key = `${labels['node.kubernetes.io/instance-type']}/${labels['topology.kubernetes.io/zone']}/${labels['karpenter.sh/capacity-type']}`;
    return prices.get(key) ?? 0;
  };
}
