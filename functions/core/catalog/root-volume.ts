import type { BlockDeviceMapping, NodeClass } from '../model/node-class.js';
import { parseBytes } from '../model/quantity.js';

/** The device the AMI family uses for the kubelet's (ephemeral) storage. */
function ephemeralDevice(nodeClass: NodeClass): string {
  return nodeClass.amiFamily === 'Bottlerocket' ? '/dev/xvdb' : '/dev/xvda';
}

/**
 * The size in bytes of the volume that backs ephemeral storage, from the NodeClass
 * blockDeviceMappings: the one marked `rootVolume`, else the AMI family's device, else the last
 * mapping. Undefined when the NodeClass has no mapping with a size (the 20 GiB default applies).
 */
export function rootVolumeBytes(nodeClass: NodeClass | undefined): number | undefined {
  const mappings = nodeClass?.blockDeviceMappings ?? [];
  if (mappings.length === 0 || !nodeClass) return undefined;
  const chosen: BlockDeviceMapping =
    mappings.find((m) => m.rootVolume) ??
    mappings.find((m) => m.deviceName === ephemeralDevice(nodeClass)) ??
    mappings[mappings.length - 1];
  const size = chosen.ebs?.volumeSize;
  if (size === undefined) return undefined;
  try {
    return parseBytes(size);
  } catch (error) {
    throw new Error(
      `NodeClass ${nodeClass.name} blockDeviceMappings ${chosen.deviceName} ebs.volumeSize: ${(error as Error).message}`,
    );
  }
}
