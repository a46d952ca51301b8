import { nodeClassAmiFamily } from '../model/ami-family.js';
import type { AmiFamily, BlockDeviceMapping, NodeClass } from '../model/node-class.js';
import { parseBytes } from '../model/quantity.js';

/**
 * The device the AMI family keeps the kubelet's (ephemeral) storage on: Bottlerocket's second (data)
 * volume `/dev/xvdb` (its `/dev/xvda` is the 4 GiB OS volume), the root volume `/dev/xvda` otherwise.
 */
export function ephemeralDevice(family: AmiFamily | undefined): string {
  return family === 'Bottlerocket' ? '/dev/xvdb' : '/dev/xvda';
}

function sizeOf(nodeClass: NodeClass, mapping: BlockDeviceMapping | undefined): number | undefined {
  const size = mapping?.ebs?.volumeSize;
  if (mapping === undefined || size === undefined) return undefined;
  try {
    return parseBytes(size);
  } catch (error) {
    throw new Error(
      `NodeClass ${nodeClass.name} blockDeviceMappings ${mapping.deviceName} ebs.volumeSize: ${(error as Error).message}`,
    );
  }
}

/**
 * The size in bytes of the volume that backs ephemeral storage, from the NodeClass
 * blockDeviceMappings, as Karpenter picks it: the mapping marked `rootVolume` (when sized), else for
 * Custom the last mapping, else the family's ephemeral device (Bottlerocket's data volume
 * `/dev/xvdb`, whether the family is written or comes from a `bottlerocket@...` alias).
 * Undefined when none of them gives a size: the family default of 20 GiB applies (Bottlerocket's
 * default data volume is 20 GiB too).
 */
export function rootVolumeBytes(nodeClass: NodeClass | undefined): number | undefined {
  const mappings = nodeClass?.blockDeviceMappings ?? [];
  if (mappings.length === 0 || !nodeClass) return undefined;
  const root = sizeOf(
    nodeClass,
    mappings.find((m) => m.rootVolume),
  );
  if (root !== undefined) return root;
  const family = nodeClassAmiFamily(nodeClass);
  if (family === 'Custom') return sizeOf(nodeClass, mappings[mappings.length - 1]);
  const device = ephemeralDevice(family);
  return sizeOf(
    nodeClass,
    mappings.find((m) => m.deviceName === device),
  );
}
