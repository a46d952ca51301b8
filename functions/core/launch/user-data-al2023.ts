import type { KubeletConfiguration } from '../model/node-class.js';
import type { BootstrapInput } from './bootstrap.js';
import { taintFlag } from './bootstrap.js';

const BOUNDARY = '//JOINER//';

/** The `node.eks.aws/v1alpha1` NodeConfig document (nodeadm) of a node. */
export function nodeConfig(input: BootstrapInput): Record<string, unknown> {
  const flags = [`--node-labels=${labelList(input.labels)}`];
  if (input.taints.length > 0) flags.push(`--register-with-taints=${input.taints.map(taintFlag).join(',')}`);
  return {
    apiVersion: 'node.eks.aws/v1alpha1',
    kind: 'NodeConfig',
    spec: {
      cluster: {
        name: input.cluster.name,
        apiServerEndpoint: input.cluster.endpoint,
        certificateAuthority: input.cluster.certificateAuthority,
        cidr: input.cluster.serviceCidr,
      },
      kubelet: { config: kubeletConfig(input.kubelet, input.maxPods), flags },
      // nodeadm builds the RAID0 array of the instance store disks and mounts the kubelet and containerd dirs on it.
      ...(input.instanceStorePolicy === 'RAID0' ? { instance: { localStorage: { strategy: 'RAID0' } } } : {}),
    },
  };
}

function labelList(labels: Readonly<Record<string, string>>): string {
  return Object.entries(labels)
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([k, v]) => `${k}=${v}`)
    .join(',');
}

function kubeletConfig(kubelet: KubeletConfiguration, maxPods: number): Record<string, unknown> {
  const config: Record<string, unknown> = { maxPods };
  const copy = [
    'clusterDNS',
    'systemReserved',
    'kubeReserved',
    'evictionHard',
    'evictionSoft',
    'evictionSoftGracePeriod',
    'evictionMaxPodGracePeriod',
    'imageGCHighThresholdPercent',
    'imageGCLowThresholdPercent',
    'cpuCFSQuota',
    'podsPerCore',
  ] as const;
  for (const key of copy) if (kubelet[key] !== undefined) config[key] = kubelet[key];
  return config;
}

interface MimePart {
  readonly contentType: string;
  readonly body: string;
}

/**
 * AL2023 user data: a MIME multipart document with the NodeClass's own user data (its MIME
 * parts, a NodeConfig, or a shell script) first, then joiner's NodeConfig part, so joiner's
 * settings win where nodeadm merges. joiner's NodeConfig is written as JSON, which is YAML too:
 * nodeadm reads it the same, and the launch path needs no YAML library.
 */
export function al2023UserData(input: BootstrapInput): string {
  const parts = [
    ...customParts(input.customUserData),
    { contentType: 'application/node.eks.aws', body: JSON.stringify(nodeConfig(input), null, 2) },
  ];
  const lines = ['MIME-Version: 1.0', `Content-Type: multipart/mixed; boundary="${BOUNDARY}"`, ''];
  for (const part of parts) {
    lines.push(`--${BOUNDARY}`, `Content-Type: ${part.contentType}`, '', part.body.replace(/\n+$/, ''), '');
  }
  lines.push(`--${BOUNDARY}--`, '');
  return lines.join('\n');
}

function customParts(userData: string | undefined): MimePart[] {
  if (!userData?.trim()) return [];
  const text = userData.replace(/\r\n/g, '\n');
  const boundary = /^Content-Type:\s*multipart\/[^\n]*boundary="?([^";\n]+)"?/im.exec(text)?.[1];
  if (boundary) {
    return text
      .split(`--${boundary}`)
      .slice(1)
      .filter((chunk) => !chunk.startsWith('--'))
      .map((chunk) => {
        const body = chunk.replace(/^\n/, '');
        const split = body.indexOf('\n\n');
        const headers = split === -1 ? body : body.slice(0, split);
        const type = /^Content-Type:\s*([^\n]+)/im.exec(headers)?.[1]?.trim();
        if (!type) throw new Error('NodeClass userData: a MIME part has no Content-Type header');
        return { contentType: type, body: split === -1 ? '' : body.slice(split + 2) };
      });
  }
  if (/^\s*apiVersion:\s*node\.eks\.aws\//m.test(text))
    return [{ contentType: 'application/node.eks.aws', body: text }];
  return [{ contentType: 'text/x-shellscript; charset="us-ascii"', body: text }];
}
