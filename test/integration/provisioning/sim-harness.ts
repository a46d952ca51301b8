/**
 * Provisioning against the simulated cloud with the production adapters: the Kubernetes adapter
 * over the simulator's kubeconfig, the DynamoDB store on dynalite, the EC2 cloud provider on the
 * simulated EC2, the SQS timer scheduler. Seeds are applied as manifests; the simulated
 * kube-scheduler marks their pods Unschedulable.
 */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parseYamlDocuments } from '../../../functions/core/model/config/raw-document.js';
import type { Clock } from '../../../functions/core/ports/clock.js';
import type { ProvisionDeps } from '../../../functions/core/provisioning/types.js';
import { type Dependencies, dependenciesFromEnv } from '../../../functions/handlers/runtime/dependencies.js';
import { type SimulatedCloud, startSimulatedCloud } from '../../../functions/simulator/cloud.js';
import { iamOfManifests } from '../../../functions/simulator/scenario/account-iam.js';
import { applyManifests } from '../../../functions/simulator/scenario/cluster-manifests.js';
import type { Manifest } from '../../../functions/simulator/scenario/load-scenario.js';
import { RecordingLog } from '../../unit/core/provisioning/fakes.js';

/** The manifests of the YAML files of a seed example directory. */
export async function seedManifests(dir: string): Promise<Manifest[]> {
  const out: Manifest[] = [];
  for (const file of (await readdir(dir)).filter((f) => f.endsWith('.yaml')).sort()) {
    const { documents } = parseYamlDocuments(file, await readFile(join(dir, file), 'utf8'));
    out.push(...documents.map((d) => d.object as Manifest));
  }
  return out;
}

/**
 * The clock port of a test that moves the simulated cloud's clock by hand (`clock.advance`): its
 * time, and the SDK's retry backoff waited as at most 20 ms of wall time. Nothing there runs on
 * wall time (EC2's token buckets refill on the virtual clock, injected faults are drawn per
 * call), so the full backoff (seconds under throttling) would only make the test wait; every
 * retry is still made.
 */
export function manualClockPort(clock: Clock): Clock {
  return {
    now: () => clock.now(),
    wait: (ms) => new Promise((resolve) => setTimeout(resolve, Math.min(ms, 20))),
  };
}

/** A simulated cloud with a seed applied, and provisioning deps on the real adapters. */
export interface SimProvisioning {
  readonly cloud: SimulatedCloud;
  readonly log: RecordingLog;
  /** Every dependency a handler gets (with the recording log), usable as provisioning deps. */
  readonly deps: Dependencies & ProvisionDeps;
  /** Live (not terminated) instances in the simulated EC2. */
  liveInstances(): { instanceId: string; instanceType: string; zone: string; capacityType: string }[];
}

/** Starts the cloud, applies the seed and runs the kube-scheduler so its pods are Unschedulable. */
export async function startWithSeed(dir: string, clusterName = 'joiner-sim'): Promise<SimProvisioning> {
  const manifests = await seedManifests(dir);
  const cloud = await startSimulatedCloud({ seed: 5, clusterName, ...iamOfManifests(manifests) });
  try {
    await applyManifests(cloud.kube.store, manifests);
    await cloud.kube.idle();
    await cloud.kube.scheduleNow();
    await cloud.kube.idle();
    // The SDK clients read credentials from the process environment, as they do in Lambda.
    const env = cloud.env();
    process.env.AWS_ACCESS_KEY_ID = env.AWS_ACCESS_KEY_ID;
    process.env.AWS_SECRET_ACCESS_KEY = env.AWS_SECRET_ACCESS_KEY;
    const log = new RecordingLog();
    const deps: Dependencies & ProvisionDeps = {
      ...dependenciesFromEnv(env, { clock: cloud.clock, log }),
      log,
      sleep: (ms) => new Promise((resolve) => setTimeout(resolve, Math.min(ms, 20))),
    };
    const liveInstances = () =>
      [...cloud.ec2.state.instances.values()]
        .filter((i) => i.state !== 'terminated' && i.state !== 'shutting-down')
        .map((i) => ({
          instanceId: i.instanceId,
          instanceType: i.instanceType,
          zone: i.availabilityZone,
          capacityType: i.capacityType,
        }));
    return { cloud, log, deps, liveInstances };
  } catch (error) {
    await cloud.close();
    throw error;
  }
}
