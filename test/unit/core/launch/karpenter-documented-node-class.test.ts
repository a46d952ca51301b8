/**
 * The EC2NodeClass of Karpenter's reference documentation (every field joiner implements, with the
 * values the documentation shows) reaches the launch: each field is read from the YAML and found in
 * the launch template or the user data, so none is accepted and then dropped on the way.
 */
import { describe, expect, it } from 'vitest';
import { bundledCatalog } from '../../../../functions/core/catalog/bundled.js';
import { resolveInstanceTypes } from '../../../../functions/core/catalog/resolve.js';
import { planLaunch } from '../../../../functions/core/launch/fleet-request.js';
import { loadDocuments } from '../../../../functions/core/model/config/load.js';
import { parseYamlDocuments } from '../../../../functions/core/model/config/raw-document.js';
import { instanceFactsOf } from '../../../../functions/core/provisioning/launch-claims.js';
import { nodePool } from '../../../builders/config.js';
import { claim, option, resolved } from './fixtures.js';

/** Karpenter's documented EC2NodeClass, less the fields joiner refuses (README "not supported"). */
const DOCUMENTED = `apiVersion: karpenter.k8s.aws/v1
kind: EC2NodeClass
metadata:
  name: default
spec:
  kubelet:
    podsPerCore: 2
    maxPods: 20
    systemReserved: { cpu: 100m, memory: 100Mi, ephemeral-storage: 1Gi }
    kubeReserved: { cpu: 200m, memory: 100Mi, ephemeral-storage: 3Gi }
    evictionHard: { memory.available: 5%, nodefs.available: 10%, nodefs.inodesFree: 10% }
    evictionSoft: { memory.available: 500Mi, nodefs.available: 15%, nodefs.inodesFree: 15% }
    evictionSoftGracePeriod: { memory.available: 1m, nodefs.available: 1m30s, nodefs.inodesFree: 2m }
    evictionMaxPodGracePeriod: 60
    imageGCHighThresholdPercent: 85
    imageGCLowThresholdPercent: 80
    cpuCFSQuota: true
    clusterDNS: ["10.0.1.100"]
  amiFamily: AL2
  subnetSelectorTerms:
    - tags: { karpenter.sh/discovery: demo, environment: test }
    - id: subnet-09fa4a0a8f233a921
  securityGroupSelectorTerms:
    - tags: { karpenter.sh/discovery: demo, environment: test }
    - name: my-security-group
    - id: sg-063d7acfb4b06c82c
  role: KarpenterNodeRole-demo
  amiSelectorTerms:
    - tags: { karpenter.sh/discovery: demo, environment: test }
    - name: my-ami
    - id: ami-123
    - ssmParameter: my-custom-parameter
  capacityReservationSelectorTerms:
    - tags: { karpenter.sh/discovery: demo }
    - id: cr-123
    - instanceMatchCriteria: open
  tags: { team: team-a, app: team-a-app }
  metadataOptions:
    httpEndpoint: enabled
    httpProtocolIPv6: disabled
    httpPutResponseHopLimit: 1
    httpTokens: required
  blockDeviceMappings:
    - deviceName: /dev/xvda
      ebs:
        volumeSize: 100Gi
        volumeType: gp3
        iops: 10000
        encrypted: true
        kmsKeyID: "1234abcd-12ab-34cd-56ef-1234567890ab"
        deleteOnTermination: true
        throughput: 125
        snapshotID: snap-0123456789
        volumeInitializationRate: 100
  instanceStorePolicy: RAID0
  userData: |
    echo "Hello world"
  detailedMonitoring: true
  associatePublicIPAddress: true
`;

function launchOf(yaml: string) {
  const { documents } = parseYamlDocuments('class.yaml', yaml);
  const loaded = loadDocuments(documents);
  expect(loaded.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
  const [nodeClass] = loaded.nodeClasses;
  const options = [option('c6i.2xlarge', 'us-west-2a', 'on-demand', 0.34)];
  return planLaunch({
    claim: claim(options),
    nodeClass,
    family: 'AL2',
    resolved: { ...resolved(), multus: [] },
    options,
    capacityType: 'on-demand',
    clientToken: 'joiner-documented-1',
    // The facts the provisioner launches with: the catalog's types resolved for this NodeClass.
    instanceFacts: instanceFactsOf({
      pool: nodePool(),
      nodeClass,
      instanceTypes: resolveInstanceTypes(bundledCatalog, nodeClass),
    }),
  });
}

describe("Karpenter's documented EC2NodeClass reaches the launch", () => {
  const [template] = launchOf(DOCUMENTED).templates;
  const data = template.data;

  it('detailedMonitoring, associatePublicIPAddress and metadataOptions are set on the launch template', () => {
    expect(data.Monitoring).toEqual({ Enabled: true });
    expect(data.NetworkInterfaces[0]).toMatchObject({ DeviceIndex: 0, AssociatePublicIpAddress: true });
    expect(data.MetadataOptions).toEqual({
      HttpEndpoint: 'enabled',
      HttpProtocolIpv6: 'disabled',
      HttpPutResponseHopLimit: 1,
      HttpTokens: 'required',
    });
  });

  it('every blockDeviceMappings ebs field is on the launch template', () => {
    expect(data.BlockDeviceMappings).toEqual([
      {
        DeviceName: '/dev/xvda',
        Ebs: {
          VolumeSize: 100,
          VolumeType: 'gp3',
          Iops: 10000,
          Encrypted: true,
          KmsKeyId: '1234abcd-12ab-34cd-56ef-1234567890ab',
          DeleteOnTermination: true,
          Throughput: 125,
          SnapshotId: 'snap-0123456789',
          VolumeInitializationRate: 100,
        },
      },
    ]);
  });

  it('tags go on the instance and its volumes', () => {
    for (const type of ['instance', 'volume']) {
      const spec = data.TagSpecifications.find((s) => s.ResourceType === type)!;
      expect(spec.Tags, type).toEqual(
        expect.arrayContaining([
          { Key: 'team', Value: 'team-a' },
          { Key: 'app', Value: 'team-a-app' },
        ]),
      );
    }
  });

  it('the kubelet fields, RAID0 and the user data are in the AL2 user data', () => {
    const userData = template.userData;
    expect(userData).toContain('echo "Hello world"');
    for (const flag of [
      '--eviction-soft=',
      'memory.available<500Mi',
      '--eviction-soft-grace-period=',
      '--eviction-max-pod-grace-period=60',
      '--image-gc-high-threshold=85',
      '--image-gc-low-threshold=80',
      '--cpu-cfs-quota=true',
      '--eviction-hard=',
      'memory.available<5%',
      '--kube-reserved=',
      '--system-reserved=',
    ])
      expect(userData, flag).toContain(flag);
    expect(userData).toMatch(/10\.0\.1\.100/);
    // maxPods 20, capped by podsPerCore 2 x 8 vCPUs of a c6i.2xlarge, as Karpenter counts it.
    expect(userData).toContain('--max-pods=16 ');
    expect(userData).toMatch(/--local-disks raid0|setup-local-disks raid0/);
  });
});
