import { describe, expect, it } from 'vitest';
import {
  type BootstrapInput,
  bootstrapFamily,
  registrableLabels,
} from '../../../../functions/core/launch/bootstrap.js';
import { renderUserData } from '../../../../functions/core/launch/user-data.js';
import { parseUserData } from '../../../../functions/simulator/kube/kubelet/user-data.js';

const input: BootstrapInput = {
  family: 'AL2023',
  cluster: {
    name: 'eks-telco',
    endpoint: 'https://api.example',
    certificateAuthority: 'Q0E=',
    serviceCidr: '10.100.0.0/16',
  },
  labels: { team: 'net', 'karpenter.sh/nodepool': 'multus' },
  taints: [
    { key: 'dedicated', value: 'telco', effect: 'NoSchedule' },
    { key: 'joiner.sh/multus-not-ready', effect: 'NoExecute' },
  ],
  maxPods: 27,
  kubelet: {
    clusterDNS: ['10.100.0.10'],
    systemReserved: { cpu: '100m', memory: '100Mi' },
    evictionHard: { 'memory.available': '5%' },
  },
};

describe('user data', () => {
  it('AL2023: MIME multipart with a NodeConfig part holding cluster, kubelet config and flags', () => {
    const text = renderUserData(input);
    expect(text).toMatch(/^MIME-Version: 1\.0\nContent-Type: multipart\/mixed; boundary="[^"]+"/);
    const part = text.split('Content-Type: application/node.eks.aws\n\n')[1].split('\n--')[0];
    // JSON (which nodeadm reads as the YAML it is), so the launch path needs no YAML library.
    const doc = JSON.parse(part);
    expect(doc).toMatchObject({
      apiVersion: 'node.eks.aws/v1alpha1',
      kind: 'NodeConfig',
      spec: {
        cluster: {
          name: 'eks-telco',
          apiServerEndpoint: 'https://api.example',
          certificateAuthority: 'Q0E=',
          cidr: '10.100.0.0/16',
        },
        kubelet: {
          config: {
            maxPods: 27,
            clusterDNS: ['10.100.0.10'],
            systemReserved: { cpu: '100m', memory: '100Mi' },
            evictionHard: { 'memory.available': '5%' },
          },
          flags: [
            '--node-labels=karpenter.sh/nodepool=multus,team=net',
            '--register-with-taints=dedicated=telco:NoSchedule,joiner.sh/multus-not-ready=:NoExecute',
          ],
        },
      },
    });
  });

  it('AL2023: merges the NodeClass script as its own part before joiner’s NodeConfig', () => {
    const text = renderUserData({ ...input, customUserData: '#!/bin/bash\necho hello\n' });
    expect(text.indexOf('text/x-shellscript')).toBeGreaterThan(0);
    expect(text.indexOf('text/x-shellscript')).toBeLessThan(text.indexOf('application/node.eks.aws'));
    expect(parseUserData(text).maxPods).toBe(27);
  });

  it('AL2023: keeps the parts of a MIME user data from the NodeClass', () => {
    const custom =
      'MIME-Version: 1.0\nContent-Type: multipart/mixed; boundary="B"\n\n--B\nContent-Type: text/x-shellscript\n\necho one\n--B--\n';
    const text = renderUserData({ ...input, customUserData: custom });
    expect(text).toContain('echo one');
    expect(text.match(/Content-Type: /g)).toHaveLength(3);
  });

  it('Bottlerocket: TOML settings with labels, taints and max pods', () => {
    const text = renderUserData({ ...input, family: 'Bottlerocket' });
    expect(text).toContain('[settings.kubernetes]\ncluster-name = "eks-telco"');
    expect(text).toContain('max-pods = 27');
    expect(text).toContain(
      '[settings.kubernetes.node-labels]\n"karpenter.sh/nodepool" = "multus"\n"team" = "net"',
    );
    expect(text).toContain('[settings.kubernetes.node-taints]\n"dedicated" = ["telco:NoSchedule"]');
    const boot = parseUserData(text);
    expect(boot).toMatchObject({
      format: 'Bottlerocket',
      clusterName: 'eks-telco',
      apiServerEndpoint: 'https://api.example',
      maxPods: 27,
    });
    expect(boot.taints).toEqual(input.taints);
  });

  it('Bottlerocket: merges the NodeClass TOML with joiner’s settings, as Karpenter does', () => {
    const text = renderUserData({
      ...input,
      family: 'Bottlerocket',
      customUserData: [
        'settings.motd = "hello"',
        '[settings.kubernetes]',
        'max-pods = 3',
        'housekeeping-interval = "1s"',
        '[settings.kubernetes.node-labels]',
        'team = "mine"',
        '"example.com/zone-owner" = "ops"',
        '[settings.host-containers.admin]',
        'enabled = true',
      ].join('\n'),
    });
    // One [settings.kubernetes] table, joiner's values winning, the user's other keys kept.
    expect(text.match(/^\[settings\.kubernetes\]$/gm)).toHaveLength(1);
    expect(text).toContain('max-pods = 27');
    expect(text).not.toContain('max-pods = 3');
    expect(text).toContain('housekeeping-interval = "1s"');
    expect(text).toContain('"example.com/zone-owner" = "ops"');
    expect(text).toContain('"team" = "net"');
    expect(text).toContain('[settings.host-containers.admin]\nenabled = true');
    expect(text).toContain('motd = "hello"');
    expect(parseUserData(text)).toMatchObject({
      format: 'Bottlerocket',
      clusterName: 'eks-telco',
      maxPods: 27,
      labels: { 'example.com/zone-owner': 'ops', team: 'net', 'karpenter.sh/nodepool': 'multus' },
    });
  });

  it('Bottlerocket: NodeClass user data that is not TOML is refused with the line', () => {
    expect(() =>
      renderUserData({
        ...input,
        family: 'Bottlerocket',
        customUserData: '[settings.kubernetes\nmax-pods = 3',
      }),
    ).toThrow(/userData \(Bottlerocket\): not valid TOML \(line 1\)/);
  });

  it('AL2: bootstrap.sh with the cluster, CA and kubelet extra args', () => {
    const text = renderUserData({ ...input, family: 'AL2', customUserData: '#!/bin/bash\necho pre' });
    expect(text.startsWith('#!/bin/bash\n')).toBe(true);
    expect(text).toContain('echo pre\n/etc/eks/bootstrap.sh');
    expect(text).toContain(
      "/etc/eks/bootstrap.sh 'eks-telco' --apiserver-endpoint 'https://api.example' --b64-cluster-ca 'Q0E=' --use-max-pods false",
    );
    expect(text).toContain('--max-pods=27');
    expect(text).toContain('--eviction-hard=memory.available<5%');
    expect(parseUserData(text)).toMatchObject({
      format: 'AL2',
      clusterName: 'eks-telco',
      maxPods: 27,
      labels: { team: 'net', 'karpenter.sh/nodepool': 'multus' },
      taints: input.taints,
    });
  });

  it('derives the family from amiFamily or the alias and refuses Windows', () => {
    expect(bootstrapFamily(undefined, [{ alias: 'bottlerocket@latest' }])).toBe('Bottlerocket');
    expect(bootstrapFamily(undefined, [{ id: 'ami-1' }])).toBe('AL2023');
    expect(bootstrapFamily('AL2', [])).toBe('AL2');
    expect(() => bootstrapFamily('Windows2022', [])).toThrow(/Windows/);
    expect(() => bootstrapFamily(undefined, [{ alias: 'ubuntu@latest' }])).toThrow(/unknown family/);
  });

  it('keeps only labels a kubelet may register', () => {
    expect(
      registrableLabels({
        team: 'a',
        'node.kubernetes.io/instance-type': 'c5.large',
        'topology.kubernetes.io/zone': 'us-west-2a',
        'karpenter.k8s.aws/instance-family': 'c5',
        'node-restriction.kubernetes.io/x': 'y',
        'node.kubernetes.io/lifecycle': 'spot',
      }),
    ).toEqual({ team: 'a', 'node.kubernetes.io/lifecycle': 'spot' });
  });

  describe('instanceStorePolicy RAID0', () => {
    const raid: BootstrapInput = { ...input, instanceStorePolicy: 'RAID0' };

    function nodeConfigOf(text: string) {
      return JSON.parse(text.split('Content-Type: application/node.eks.aws\n\n')[1].split('\n--')[0]);
    }

    it('AL2023: the NodeConfig asks nodeadm for the RAID0 local storage strategy', () => {
      expect(nodeConfigOf(renderUserData(raid)).spec.instance).toEqual({
        localStorage: { strategy: 'RAID0' },
      });
      expect(nodeConfigOf(renderUserData(input)).spec.instance).toBeUndefined();
      expect(parseUserData(renderUserData(raid))).toMatchObject({
        format: 'AL2023',
        maxPods: 27,
        localStorageRaid0: true,
      });
      expect(parseUserData(renderUserData(input)).localStorageRaid0).toBeFalsy();
    });

    it('AL2: bootstrap.sh gets --local-disks raid0', () => {
      const text = renderUserData({ ...raid, family: 'AL2' });
      expect(text).toMatch(/\/etc\/eks\/bootstrap\.sh .* --local-disks raid0\n$/);
      expect(renderUserData({ ...input, family: 'AL2' })).not.toContain('--local-disks');
      expect(parseUserData(text)).toMatchObject({ format: 'AL2', maxPods: 27, localStorageRaid0: true });
      expect(parseUserData(renderUserData({ ...input, family: 'AL2' })).localStorageRaid0).toBe(false);
    });

    it('Bottlerocket: an essential bootstrap command builds the array and binds the kubelet dirs on it', () => {
      const text = renderUserData({ ...raid, family: 'Bottlerocket' });
      expect(text).toContain(
        [
          '[settings.bootstrap-commands.000-mount-instance-storage]',
          'commands = [["apiclient", "ephemeral-storage", "init"], ["apiclient", "ephemeral-storage", "bind", "--dirs", "/var/lib/containerd", "/var/lib/kubelet", "/var/log/pods"]]',
          'essential = true',
          'mode = "always"',
        ].join('\n'),
      );
      expect(renderUserData({ ...input, family: 'Bottlerocket' })).not.toContain('bootstrap-commands');
      // Still valid settings a node boots from, and the (simulated) node sees the array.
      expect(parseUserData(text)).toMatchObject({
        format: 'Bottlerocket',
        clusterName: 'eks-telco',
        maxPods: 27,
        localStorageRaid0: true,
      });
      expect(parseUserData(renderUserData({ ...input, family: 'Bottlerocket' })).localStorageRaid0).toBe(
        false,
      );
      const off = text.replace('mode = "always"', 'mode = "off"');
      expect(parseUserData(off).localStorageRaid0).toBe(false);
    });
  });
});
