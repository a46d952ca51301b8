/**
 * The EC2 cloud provider as the functions bundle it: minified, with the EC2 and SSM schema modules
 * rewritten by the sdk-schema-keys plugin so that esbuild drops the schemas of the commands joiner
 * never sends. Against the simulated EC2 and SSM, the bundled provider resolves a NodeClass (AMI
 * alias through SSM), launches a Multus node, finds, lists and terminates it.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Metafile } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { createCloudProvider as CreateCloudProvider } from '../../../../functions/adapters/aws/create-cloud-provider.js';
import { SeededRandom, VirtualClock } from '../../../../functions/simulator/clock.js';
import { type Ec2Simulator, startEc2Simulator } from '../../../../functions/simulator/ec2/ec2-simulator.js';
import { defaultTopology } from '../../../../functions/simulator/ec2/topology.js';
import { FaultInjector } from '../../../../functions/simulator/faults.js';
import { parseUserData } from '../../../../functions/simulator/kube/kubelet/user-data.js';
import { type SsmSimulator, startSsmSimulator } from '../../../../functions/simulator/ssm/ssm-simulator.js';
import { buildHandler, PROJECT_ROOT } from '../../../../lib/handler-bundle.js';
import { nodeClass, nodePool } from '../../../builders/config.js';
import { testCatalog } from '../../simulator/ec2/test-catalog.js';
import { multusClaim, offer } from './launch-fixtures.js';

const CLUSTER = 'eks-bundled';
const credentials = { accessKeyId: 'AKIDTEST', secretAccessKey: 'secret' };

let outdir: string;
let metafile: Metafile;
let createCloudProvider: typeof CreateCloudProvider;
let clock: VirtualClock;
let ec2Sim: Ec2Simulator;
let ssmSim: SsmSimulator;

beforeAll(async () => {
  outdir = mkdtempSync(join(tmpdir(), 'joiner-bundled-cloud-'));
  const result = await buildHandler('provisioner', outdir, {
    entryPoints: [join(PROJECT_ROOT, 'functions', 'adapters', 'aws', 'create-cloud-provider.ts')],
    entryNames: 'cloud',
    splitting: false,
    sourcemap: false,
    metafile: true,
  });
  metafile = result.metafile as Metafile;
  ({ createCloudProvider } = await import(pathToFileURL(join(outdir, 'cloud.mjs')).href));
  clock = new VirtualClock();
  const random = new SeededRandom(11);
  ec2Sim = await startEc2Simulator({
    clock,
    random,
    catalog: testCatalog,
    topology: defaultTopology(CLUSTER, 'us-west-2'),
    faults: new FaultInjector(random),
  });
  ssmSim = await startSsmSimulator({ region: 'us-west-2' });
}, 60_000);

afterAll(async () => {
  await Promise.all([ec2Sim?.close(), ssmSim?.close()]);
  if (outdir) rmSync(outdir, { recursive: true, force: true });
});

describe('the bundled EC2 cloud provider', () => {
  it('holds the EC2 schemas of the commands it sends, not all of them', () => {
    const schemaBytes = Object.values(metafile.outputs)
      .flatMap((output) => Object.entries(output.inputs))
      .filter(([input]) => input.includes('@aws-sdk/client-ec2/dist-es/schemas/'))
      .reduce((sum, [, { bytesInOutput }]) => sum + bytesInOutput, 0);
    expect(schemaBytes).toBeGreaterThan(0);
    // All of them are about 540 KiB minified.
    expect(schemaBytes).toBeLessThan(200 * 1024);
  });

  it('launches a Multus node through the simulated EC2 and SSM, then finds, lists and terminates it', async () => {
    const cloud = createCloudProvider({
      region: 'us-west-2',
      ec2Endpoint: ec2Sim.url,
      ssmEndpoint: ssmSim.url,
      credentials,
      cluster: {
        name: CLUSTER,
        endpoint: 'https://api.sim',
        certificateAuthority: 'Q0E=',
        serviceCidr: '10.100.0.0/16',
      },
      kubernetesVersion: '1.30',
      defaultInstanceProfile: 'joiner-node',
      now: () => clock.now(),
    });
    const multus = nodeClass({
      // The stack's node role profile (NodeClass roles are covered in instance-profiles.test.ts).
      role: undefined,
      subnetSelectorTerms: [{ tags: { 'karpenter.sh/discovery': CLUSTER } }],
      securityGroupSelectorTerms: [{ tags: { 'karpenter.sh/discovery': CLUSTER } }],
      multusInterfaces: [
        {
          subnetSelectorTerms: [{ tags: { 'multus/interface': '1' } }],
          securityGroupSelectorTerms: [{ name: 'Vpc1SecurityGroup' }],
          deviceIndex: 1,
          networkCardIndex: 0,
          disableSourceDestCheck: true,
          ipv6AddressCount: 0,
        },
      ],
    });
    const claim = multusClaim('bundled-a', [offer('c6i.2xlarge', 'us-west-2a', 'spot')], clock.now());
    await cloud.prepareNodeClass(multus);
    const outcome = await cloud.launch({
      claim,
      nodePool: nodePool({ name: 'multus' }),
      nodeClass: multus,
      options: claim.options,
      capacityType: 'spot',
      clientToken: 'joiner-bundled-a-1',
      instanceFacts: () => ({ arch: 'amd64', maxPods: 29 }),
    });
    expect(outcome.ok).toBe(true);
    if (!outcome.ok) return;
    const id = outcome.instance.instanceId;
    const instance = ec2Sim.state.instances.get(id);
    expect(instance?.instanceType).toBe('c6i.2xlarge');
    expect(instance?.networkInterfaces.map((e) => e.deviceIndex).sort()).toEqual([0, 1]);
    expect(parseUserData(instance?.userData ?? '')).toMatchObject({
      format: 'AL2023',
      clusterName: CLUSTER,
      maxPods: 29,
    });
    expect(await cloud.findByNodeClaim('bundled-a')).toMatchObject({
      instanceId: id,
      nodeClaimId: 'bundled-a',
    });
    expect((await cloud.list()).map((i) => i.instanceId)).toContain(id);
    await cloud.terminate([id]);
    expect((await cloud.get(id))?.state ?? 'terminated').toMatch(/shutting-down|terminated/);
  });
});
