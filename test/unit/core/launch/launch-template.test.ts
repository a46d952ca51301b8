import { describe, expect, it } from 'vitest';
import { planLaunch } from '../../../../functions/core/launch/fleet-request.js';
import { nodeClassHash } from '../../../../functions/core/launch/hash.js';
import { parseUserData } from '../../../../functions/simulator/kube/kubelet/user-data.js';
import { claim, facts, multusNodeClass, option, resolved } from './fixtures.js';

function plan(
  options = [
    option('c6i.2xlarge', 'us-west-2a', 'spot', 0.1),
    option('c6i.2xlarge', 'us-west-2b', 'spot', 0.11),
  ],
) {
  return planLaunch({
    claim: claim(options),
    nodeClass: multusNodeClass(),
    family: 'AL2023',
    resolved: resolved(),
    options,
    capacityType: 'spot',
    clientToken: 'joiner-multus-abc123-1',
    instanceFacts: facts,
  });
}

describe('launch templates with Multus interfaces', () => {
  it('attaches one interface per Multus interface with that zone’s subnet and security groups', () => {
    const { templates } = plan();
    expect(templates.map((t) => t.zone)).toEqual(['us-west-2a', 'us-west-2b']);
    const [a, b] = templates;
    expect(a.data.NetworkInterfaces).toEqual([
      expect.objectContaining({
        DeviceIndex: 0,
        NetworkCardIndex: 0,
        SubnetId: 'subnet-pa',
        Groups: ['sg-node'],
        DeleteOnTermination: true,
      }),
      expect.objectContaining({
        DeviceIndex: 1,
        SubnetId: 'subnet-m1a',
        Groups: ['sg-multus1'],
        DeleteOnTermination: true,
      }),
      expect.objectContaining({
        DeviceIndex: 2,
        SubnetId: 'subnet-m2a',
        Groups: ['sg-multus2'],
        DeleteOnTermination: true,
        Ipv6AddressCount: 1,
      }),
    ]);
    expect(a.data.NetworkInterfaces[1]).not.toHaveProperty('Ipv6AddressCount');
    expect(b.data.NetworkInterfaces.map((n) => n.SubnetId)).toEqual([
      'subnet-pb',
      'subnet-m1b',
      'subnet-m2b',
    ]);
    expect(a.sourceDestCheckOff).toEqual([{ deviceIndex: 1, networkCardIndex: 0 }]);
  });

  it('uses IMDSv2, encrypted gp3 root volume, the instance profile and cluster/nodepool tags', () => {
    const [t] = plan().templates;
    expect(t.data.MetadataOptions).toEqual({
      HttpEndpoint: 'enabled',
      HttpTokens: 'required',
      HttpPutResponseHopLimit: 1,
      HttpProtocolIpv6: 'disabled',
    });
    expect(t.data.BlockDeviceMappings).toEqual([
      {
        DeviceName: '/dev/xvda',
        Ebs: { DeleteOnTermination: true, VolumeSize: 20, VolumeType: 'gp3', Encrypted: true },
      },
    ]);
    expect(t.data.IamInstanceProfile).toEqual({ Name: 'joiner-node' });
    expect(t.data.ImageId).toBe('ami-amd');
    const instanceTags = t.data.TagSpecifications.find((s) => s.ResourceType === 'instance')!.Tags;
    expect(instanceTags).toEqual(
      expect.arrayContaining([
        { Key: 'joiner.sh/cluster', Value: 'eks-telco' },
        { Key: 'karpenter.sh/nodepool', Value: 'multus' },
        { Key: 'kubernetes.io/cluster/eks-telco', Value: 'owned' },
      ]),
    );
    expect(t.data.TagSpecifications.map((s) => s.ResourceType)).toEqual([
      'instance',
      'volume',
      'network-interface',
      'spot-instances-request',
    ]);
    expect(Buffer.from(t.data.UserData, 'base64').toString('utf8')).toBe(t.userData);
  });

  it('tags the spot request of a spot launch with the cluster tag IAM requires on it (Karpenter does the same)', () => {
    const [t] = plan().templates;
    const spot = t.data.TagSpecifications.find((s) => s.ResourceType === 'spot-instances-request');
    expect(spot?.Tags).toEqual(
      expect.arrayContaining([
        { Key: 'joiner.sh/cluster', Value: 'eks-telco' },
        { Key: 'karpenter.sh/nodepool', Value: 'multus' },
        { Key: 'joiner.sh/nodeclass', Value: expect.any(String) },
      ]),
    );
    expect(spot?.Tags).toEqual(t.data.TagSpecifications.find((s) => s.ResourceType === 'instance')?.Tags);
  });

  it('leaves the spot request out of on-demand templates, which never share a name with spot ones', () => {
    const spot = plan().templates[0];
    const options = [option('c6i.2xlarge', 'us-west-2a', 'on-demand', 0.3)];
    const onDemand = planLaunch({
      claim: claim(options),
      nodeClass: multusNodeClass(),
      family: 'AL2023',
      resolved: resolved(),
      options,
      capacityType: 'on-demand',
      clientToken: 'joiner-multus-abc123-1',
      instanceFacts: facts,
    }).templates[0];
    expect(onDemand.data.TagSpecifications.map((s) => s.ResourceType)).toEqual([
      'instance',
      'volume',
      'network-interface',
    ]);
    expect(onDemand.zone).toBe(spot.zone);
    expect(onDemand.name).not.toBe(spot.name);
  });

  it('joins the node with labels, taints, the Multus startup taint and max pods for its type', () => {
    const options = [
      option('c6i.2xlarge', 'us-west-2a', 'spot', 0.1),
      option('c6i.large', 'us-west-2a', 'spot', 0.05),
    ];
    const { templates } = plan(options);
    expect(templates.map((t) => t.maxPods).sort()).toEqual([27, 56]);
    const boot = parseUserData(templates.find((t) => t.maxPods === 27)!.userData);
    expect(boot).toMatchObject({ format: 'AL2023', clusterName: 'eks-telco', maxPods: 27 });
    expect(boot.labels).toEqual({
      'karpenter-node': 'true',
      'karpenter.sh/nodepool': 'multus',
      'karpenter.sh/capacity-type': 'spot',
    });
    expect(boot.taints).toEqual([
      { key: 'dedicated', value: 'telco', effect: 'NoSchedule' },
      { key: 'node.cilium.io/agent-not-ready', effect: 'NoExecute' },
      { key: 'joiner.sh/multus-not-ready', value: 'true', effect: 'NoSchedule' },
      { key: 'karpenter.sh/unregistered', effect: 'NoExecute' },
    ]);
  });

  it('names templates by content: same input same name, different zone different name', () => {
    const first = plan().templates;
    const again = plan().templates;
    expect(again.map((t) => t.name)).toEqual(first.map((t) => t.name));
    expect(new Set(first.map((t) => t.name)).size).toBe(2);
    expect(first[0].name).toMatch(/^joiner\/eks-telco\/[0-9a-f]{20}$/);
  });

  it('fails clearly when a zone has no Multus subnet', () => {
    const r = resolved();
    const noB = {
      ...r,
      multus: r.multus.map((m, i) =>
        i === 1 ? { ...m, subnets: m.subnets.filter((s) => s.zone !== 'us-west-2b') } : m,
      ),
    };
    const options = [option('c6i.2xlarge', 'us-west-2b', 'spot', 0.1)];
    expect(() =>
      planLaunch({
        claim: claim(options),
        nodeClass: multusNodeClass(),
        family: 'AL2023',
        resolved: noB,
        options,
        capacityType: 'spot',
        clientToken: 't',
        instanceFacts: facts,
      }),
    ).toThrow(/no spot option can be launched \(no subnet for multusInterfaces\[1\] in us-west-2b\)/);
  });

  it('hashes NodeClasses by content, not by where they came from', () => {
    const a = multusNodeClass();
    expect(nodeClassHash({ ...a, source: { ...a.source, file: 'other.yaml' } })).toBe(nodeClassHash(a));
    expect(nodeClassHash({ ...a, tags: { team: 'x' } })).not.toBe(nodeClassHash(a));
  });

  it('passes the NodeClass instanceStorePolicy RAID0 to the user data', () => {
    const options = [option('c6i.2xlarge', 'us-west-2a', 'spot', 0.1)];
    const launch = (nodeClass: ReturnType<typeof multusNodeClass>) =>
      planLaunch({
        claim: claim(options),
        nodeClass,
        family: 'AL2023',
        resolved: resolved(),
        options,
        capacityType: 'spot',
        clientToken: 'joiner-raid-1',
        instanceFacts: facts,
      }).templates[0];
    expect(launch(multusNodeClass({ instanceStorePolicy: 'RAID0' })).userData).toContain(
      '"strategy": "RAID0"',
    );
    expect(launch(multusNodeClass()).userData).not.toContain('RAID0');
  });
});

describe('EBS volume initialization rate (EC2NodeClass blockDeviceMappings[].ebs.volumeInitializationRate)', () => {
  it('is set on the launch template volume created from a snapshot', () => {
    const options = [option('c6i.2xlarge', 'us-west-2a', 'spot', 0.1)];
    const { templates } = planLaunch({
      claim: claim(options),
      nodeClass: multusNodeClass({
        blockDeviceMappings: [
          {
            deviceName: '/dev/xvda',
            ebs: { volumeSize: '40Gi', snapshotID: 'snap-0123456789abcdef0', volumeInitializationRate: 200 },
          },
        ],
      }),
      family: 'AL2023',
      resolved: resolved(),
      options,
      capacityType: 'spot',
      clientToken: 'joiner-multus-abc123-1',
      instanceFacts: facts,
    });
    expect(templates[0].data.BlockDeviceMappings).toEqual([
      {
        DeviceName: '/dev/xvda',
        Ebs: {
          DeleteOnTermination: true,
          VolumeSize: 40,
          SnapshotId: 'snap-0123456789abcdef0',
          VolumeInitializationRate: 200,
        },
      },
    ]);
  });
});
