import { efaConflict } from '../launch/efa-interfaces.js';
import { nodeClassAmiFamily } from '../model/ami-family.js';
import type {
  CapacityType,
  Catalog,
  ResolvedInstanceType,
  ResolvedOffering,
} from '../model/instance-type.js';
import type { NodeClass } from '../model/node-class.js';
import { EFA } from '../model/resources.js';
import { type AllocatableOptions, nodeCapacity } from './allocatable.js';
import { instanceTypeLabels } from './labels.js';
import { rootVolumeBytes } from './root-volume.js';

/** Options of {@link resolveInstanceTypes}. */
export interface ResolveOptions {
  /** True while an offering is marked unavailable (e.g. after InsufficientInstanceCapacity). */
  readonly isUnavailable?: (type: string, zone: string, capacityType: CapacityType) => boolean;
  /** Only offerings in these zones (e.g. the zones of a NodeClass's subnets). Default: all. */
  readonly zones?: readonly string[];
  /** Each zone's ID (from the NodeClass's subnets): offerings in a zone carry it. Default: none. */
  readonly zoneIds?: ReadonlyMap<string, string>;
  /** Share of memory the hypervisor keeps. Default 0.075. */
  readonly vmMemoryOverheadPercent?: number;
}

/** The allocatable options a NodeClass implies: kubelet, Multus ENIs, root volume, instance store policy, AMI family. */
export function allocatableOptionsFor(nodeClass: NodeClass | undefined): AllocatableOptions {
  return {
    amiFamily: nodeClass === undefined ? undefined : nodeClassAmiFamily(nodeClass),
    kubelet: nodeClass?.kubelet,
    multusEnis: nodeClass?.multusInterfaces.filter((m) => m.networkCardIndex === 0).length ?? 0,
    rootVolumeBytes: rootVolumeBytes(nodeClass),
    instanceStorePolicy: nodeClass?.instanceStorePolicy,
  };
}

/**
 * Every instance type of the catalog as nodes of this NodeClass would have it: labels, capacity,
 * allocatable (kubelet settings and Multus ENIs applied) and offerings, sorted by name. Nothing is
 * filtered out: offerings marked unavailable stay with `available: false`.
 */
export function resolveInstanceTypes(
  catalog: Catalog,
  nodeClass: NodeClass | undefined,
  options: ResolveOptions = {},
): ResolvedInstanceType[] {
  const allocatableOptions: AllocatableOptions = {
    ...allocatableOptionsFor(nodeClass),
    vmMemoryOverheadPercent: options.vmMemoryOverheadPercent,
  };
  const isUnavailable = options.isUnavailable ?? (() => false);
  const zones = options.zones && new Set(options.zones);
  return [...catalog.instanceTypes]
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
    .map((it) => {
      const { capacity, allocatable } = nodeCapacity(it, allocatableOptions);
      if (capacity[EFA] !== undefined && nodeClass && efaConflict(it, nodeClass.multusInterfaces)) {
        // The type's EFA interfaces do not fit beside this NodeClass's Multus interfaces: no EFA
        // pod is planned on it (`joiner validate` names the conflict).
        delete capacity[EFA];
        delete allocatable[EFA];
      }
      const offered = zones ? it.offerings.filter((o) => zones.has(o.zone)) : it.offerings;
      const offerings: ResolvedOffering[] = offered.map((o) => ({
        zone: o.zone,
        ...zoneIdOf(options.zoneIds, o.zone),
        capacityType: o.capacityType,
        price: o.price,
        available: !isUnavailable(it.name, o.zone, o.capacityType),
      }));
      return {
        name: it.name,
        labels: instanceTypeLabels(it, catalog.region),
        capacity,
        allocatable,
        offerings,
      };
    });
}

function zoneIdOf(zoneIds: ReadonlyMap<string, string> | undefined, zone: string): { zoneId?: string } {
  const zoneId = zoneIds?.get(zone);
  return zoneId === undefined ? {} : { zoneId };
}
