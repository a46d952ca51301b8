/** The Node object a kubelet registers for an instance. */
import type { InstanceType } from '../../../core/model/instance-type.js';
import type { Taint } from '../../../core/model/taint.js';
import type { SimInstance } from '../../instance.js';
import { timestamp } from '../api/object-defaults.js';
import type { KubeObject } from '../api/object-store.js';
import { withoutMissingDrivers } from './accelerator-drivers.js';
import { withEfaDevices } from './efa-devices.js';
import { nodeLabels, nodeResources } from './node-capacity.js';
import type { NodeBootstrap } from './user-data.js';

/** The taint a node carries until it is Ready (set at registration, removed when Ready). */
export const NOT_READY_TAINT: Taint = { key: 'node.kubernetes.io/not-ready', effect: 'NoSchedule' };

/**
 * Builds the Node for `instance` as its kubelet registers it; accelerator resources only when the
 * instance's AMI carries their driver (see accelerator-drivers.ts), EFA devices only when it was
 * launched with EFA interfaces (efa-devices.ts).
 */
export function buildNode(
  instance: SimInstance,
  type: InstanceType,
  boot: NodeBootstrap,
  region: string,
  nowMs: number,
): KubeObject {
  const name = instance.privateDnsName;
  const config = boot.kubeletConfig ?? {};
  const resources = nodeResources(type, {
    maxPods: boot.maxPods,
    kubeReserved: config.kubeReserved as Record<string, string> | undefined,
    systemReserved: config.systemReserved as Record<string, string> | undefined,
    evictionHard: config.evictionHard as Record<string, string> | undefined,
    instanceStorePolicy: boot.localStorageRaid0 ? 'RAID0' : undefined,
  });
  const labels = {
    ...nodeLabels(type, region),
    'topology.kubernetes.io/zone': instance.availabilityZone,
    'failure-domain.beta.kubernetes.io/zone': instance.availabilityZone,
    'kubernetes.io/hostname': name,
    ...boot.labels,
  };
  const now = timestamp(nowMs);
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: {
      name,
      labels,
      annotations: { 'alpha.kubernetes.io/provided-node-ip': instance.privateIpAddress },
    },
    spec: {
      providerID: `aws:///${instance.availabilityZone}/${instance.instanceId}`,
      taints: [...boot.taints, NOT_READY_TAINT],
    },
    status: {
      capacity: withEfaDevices(
        withoutMissingDrivers(resources.capacity, instance.imageName),
        instance.networkInterfaces,
      ),
      allocatable: withEfaDevices(
        withoutMissingDrivers(resources.allocatable, instance.imageName),
        instance.networkInterfaces,
      ),
      conditions: [
        {
          type: 'MemoryPressure',
          status: 'False',
          reason: 'KubeletHasSufficientMemory',
          lastHeartbeatTime: now,
          lastTransitionTime: now,
        },
        {
          type: 'DiskPressure',
          status: 'False',
          reason: 'KubeletHasNoDiskPressure',
          lastHeartbeatTime: now,
          lastTransitionTime: now,
        },
        {
          type: 'PIDPressure',
          status: 'False',
          reason: 'KubeletHasSufficientPID',
          lastHeartbeatTime: now,
          lastTransitionTime: now,
        },
        {
          type: 'Ready',
          status: 'False',
          reason: 'KubeletNotReady',
          message: 'container runtime network not ready',
          lastHeartbeatTime: now,
          lastTransitionTime: now,
        },
      ],
      addresses: [
        { type: 'InternalIP', address: instance.privateIpAddress },
        { type: 'InternalDNS', address: name },
        { type: 'Hostname', address: name },
      ],
      nodeInfo: {
        architecture: type.arch,
        operatingSystem: 'linux',
        kubeletVersion: 'v1.32.0-eks',
        containerRuntimeVersion: 'containerd://1.7.0',
        osImage:
          boot.format === 'Bottlerocket'
            ? 'Bottlerocket OS'
            : boot.format === 'AL2'
              ? 'Amazon Linux 2'
              : 'Amazon Linux 2023',
        kernelVersion: '6.1.0',
        machineID: instance.instanceId,
        systemUUID: instance.instanceId,
        bootID: instance.instanceId,
        kubeProxyVersion: 'v1.32.0-eks',
      },
      daemonEndpoints: { kubeletEndpoint: { Port: 10250 } },
    },
  };
}
