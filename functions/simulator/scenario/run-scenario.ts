/**
 * Runs a scenario end to end: starts the simulated cloud, installs joiner's manifests (CRDs, RBAC,
 * the webhook configuration pointing at the simulated webhook function URL) and the scenario's
 * cluster manifests, sets joiner's real handlers on the Lambda runner, plays the steps while
 * virtual time runs, and returns the summary with the expectation results.
 */

import { bundledCatalog } from '../../core/catalog/bundled.js';
import { joinerManifests, WEBHOOK_SECRET_PLACEHOLDER, withWebhookSecret } from '../../core/install/index.js';
import type { Catalog } from '../../core/model/instance-type.js';
import { formatLine } from '../../handlers/runtime/log.js';
import { type SimulatedCloud, startSimulatedCloud } from '../cloud.js';
import type { ObservedDecision } from '../iam/authorization/account-authorizer.js';
import type { KubeTimings } from '../kube/timings.js';
import { SIMULATOR_CREDENTIALS } from '../sqs/sqs-simulator.js';
import { deployedAccount } from '../stack/deployed-account.js';
import { iamOfManifests } from './account-iam.js';
import { type Action, ActionLog } from './action-log.js';
import { applyManifests, ensureKinds } from './cluster-manifests.js';
import { DisruptionRecorder } from './disruption-recorder.js';
import { checkExpectations, formatFailure } from './expectations.js';
import { unexpectedDenials } from './iam-denials.js';
import { installJoinerHandlers, runInstaller } from './joiner-handlers.js';
import { LatencyRecorder } from './latency-recorder.js';
import type { Manifest, Scenario } from './load-scenario.js';
import { nodePrice } from './node-price.js';
import { PodPlacements } from './pod-placements.js';
import { reservationSpec } from './scenario-reservations.js';
import { playSteps } from './step-player.js';
import { buildSummary, type LatencySamples, latencySamples, type ScenarioSummary } from './summary.js';
import { type TimelinePoint, TimelineRecorder } from './timeline-recorder.js';

/** Options of {@link runScenario}; each overrides the scenario's own value. */
export interface RunScenarioOptions {
  readonly seed?: number;
  readonly catalog?: Catalog;
  /**
   * Virtual seconds per wall second while the whole simulation waits on timers (Infinity: jump).
   * It changes the wall time a run takes, not its outcome: joiner's compute is charged by a
   * modeled cost and the modeled AWS latencies are virtual (see VirtualClock).
   */
  readonly speed?: number;
  /**
   * Scale of batching windows, visibility timeouts and function timeouts (virtual time, see the
   * Lambda runner). Default 1, as deployed.
   */
  readonly timeScale?: number;
  /** Lifecycle timings of the simulated cluster (tests shorten them). Default: realistic ones. */
  readonly kubeTimings?: Partial<KubeTimings>;
  /** Receives every log line (joiner's handlers and the scenario's steps) as it happens. */
  readonly onLog?: (line: string) => void;
  /** Log level of the handlers' lines. Default info. */
  readonly logLevel?: 'debug' | 'info';
  /**
   * Called once joiner's handlers are set, before the cluster is installed (the chaos suite
   * replaces handlers and injects faults here).
   */
  readonly prepare?: (cloud: SimulatedCloud) => Promise<void>;
  /**
   * Whether the account's IAM decides every AWS call (default true). False is a debugging mode:
   * every call is allowed and the summary says IAM was off.
   */
  readonly iam?: boolean;
  /**
   * An already synthesized stack (template file or `cdk synth -o DIR`) whose IAM the account
   * enforces, instead of synthesizing joiner's stack in-process for the scenario.
   */
  readonly stackTemplate?: string;
  /**
   * Sees every request the account's IAM decides (the IAM minimality check records a run's
   * requests with it to replay them against modified policies).
   */
  readonly onAuthorization?: (observed: ObservedDecision) => void;
  /** Called with the cloud before it is closed (tests inspect it with real clients). */
  readonly inspect?: (cloud: SimulatedCloud, result: ScenarioResult) => Promise<void>;
}

/** The outcome of a run. */
export interface ScenarioResult {
  readonly summary: ScenarioSummary;
  /** Expectations that failed, one line each (steps' `expect` and the final `expect`). */
  readonly failures: readonly string[];
  /** Things worth knowing: waits that timed out, handlers not available, handler errors. */
  readonly notes: readonly string[];
  /** True when every expectation held. */
  readonly ok: boolean;
  /** How the run went over time (for the HTML report). */
  readonly trace: ScenarioTrace;
}

/** The run over time: the cluster's timeline, joiner's actions and the latency samples. */
export interface ScenarioTrace {
  /** Virtual epoch ms the scenario started (after setup). */
  readonly startedAt: number;
  readonly timeline: readonly TimelinePoint[];
  readonly actions: readonly Action[];
  readonly latencySamples: LatencySamples;
  /** Each scenario step as it started (virtual epoch ms and what the log said), for chart markers. */
  readonly steps: readonly { readonly at: number; readonly label: string }[];
  /** Per pod that was unschedulable: when it became so (virtual epoch ms) and ms until Running. */
  readonly pendingLatency: readonly { readonly at: number; readonly ms: number }[];
  /** The --speed of the run (wall time only). */
  readonly speed: number;
}

const DEFAULT_TIME_SCALE = 1;
/** The provisioner's log line when its batch window closed (planning starts then). */
const BATCH_CLOSED = /^(\S+) INFO provisioner batched pending pods\b/;

/** Runs `scenario` and returns its summary. The cloud is always closed. */
export async function runScenario(
  scenario: Scenario,
  options: RunScenarioOptions = {},
): Promise<ScenarioResult> {
  const speed = options.speed ?? scenario.speed;
  if (scenario.region && options.catalog && options.catalog.region !== scenario.region) {
    throw new Error(
      `${scenario.file}: region ${scenario.region} but the instance catalog is of ${options.catalog.region}; give a catalog of ${scenario.region} or drop one of them`,
    );
  }
  const region = scenario.region ?? options.catalog?.region ?? bundledCatalog.region;
  let virtualNow = (): number => Date.now();
  const account =
    options.iam === false
      ? undefined
      : await deployedAccount({
          clusterName: scenario.clusterName,
          region,
          nodeRoleArns: scenario.stack.nodeRoleArns,
          ebsKmsKeyArns: scenario.stack.ebsKmsKeyArns,
          stackTemplate: options.stackTemplate,
          clock: () => virtualNow(),
          onDecision: options.onAuthorization,
        });
  const manifestIam = iamOfManifests([
    ...scenario.cluster,
    ...scenario.steps.flatMap((s) => (s.kind === 'apply' ? s.manifests : [])),
  ]);
  const stackRoles = scenario.stack.nodeRoleArns.map((arn) => arn.split('/').pop() ?? arn);
  const cloud = await startSimulatedCloud({
    seed: options.seed ?? scenario.seed,
    catalog: options.catalog,
    region: scenario.region,
    clusterName: scenario.clusterName,
    // The clock starts once the handlers and manifests are installed (setup is not the scenario).
    apiLatency: true,
    kubeTimings: options.kubeTimings,
    timeScale: options.timeScale ?? DEFAULT_TIME_SCALE,
    // The roles NodeClasses name exist (the user made them); joiner may pass those the stack allows.
    nodeRoles: [...new Set([...manifestIam.nodeRoles, ...stackRoles])],
    instanceProfiles: manifestIam.instanceProfiles,
    ...(account ? { nodeRoleArns: scenario.stack.nodeRoleArns } : {}),
    account,
    spotServiceLinkedRole: scenario.account.spotServiceLinkedRole,
    defaultEbsKmsKeyArn: scenario.account.defaultEbsKmsKeyArn,
    kmsKeys: scenario.account.kmsKeys,
    eventualConsistency:
      scenario.account.eventualConsistencyMs === undefined
        ? undefined
        : { windowMs: scenario.account.eventualConsistencyMs },
    ec2Throttling: scenario.account.ec2Throttling,
  });
  virtualNow = () => cloud.clock.now();
  const actionLog = new ActionLog();
  const batchesClosed: number[] = [];
  /** Launch prices by instance id, from the launch log lines (what the cost charts count). */
  const launchPrices = new Map<string, number>();
  const emit = (line: string): void => {
    const action = actionLog.read(line);
    if (action?.kind === 'launch') {
      const { 'instance-id': id, price } = action.fields;
      if (typeof id === 'string' && typeof price === 'number') launchPrices.set(id, price);
    }
    const closed = BATCH_CLOSED.exec(line);
    if (closed) batchesClosed.push(Date.parse(closed[1]));
    options.onLog?.(line);
  };
  const steps: { at: number; label: string }[] = [];
  const say = (message: string): void => {
    // The first "step N: <kind> ..." line of a step starts it (later lines of the same step, e.g.
    // its expectations' result, are not new steps).
    const step = /^step (\d+): (\w+)/.exec(message);
    const label = step ? `step ${step[1]}` : '';
    if (step && !steps.some((s) => s.label.startsWith(`${label} `)))
      steps.push({ at: cloud.clock.now(), label: `${label} ${step[2]}` });
    emit(formatLine(cloud.clock.now(), 'info', `simulate ${message}`, {}));
  };
  const now = (): number => cloud.clock.now();
  const recorder = new LatencyRecorder(cloud.kube.store.api.store, cloud.ec2, now);
  const disruptions = new DisruptionRecorder(cloud.kube.store.api.store, now);
  const placements = new PodPlacements(cloud.kube.store.api.store, now);
  const catalog = cloud.catalog;
  const timeline = new TimelineRecorder(cloud.kube.store.api.store, now, nodePrice(catalog, launchPrices));
  const started = { virtual: cloud.clock.now(), wall: Date.now() };
  try {
    const notes: string[] = [];
    useSimulatorCredentials();
    await installJoinerHandlers(cloud, emit, { level: options.logLevel });
    await options.prepare?.(cloud);
    say(`scenario ${scenario.name}: cluster ${scenario.clusterName}, seed ${options.seed ?? scenario.seed}`);
    // What the deployment does: the installer custom resource applies joiner's manifests with its
    // own role (Secrets Manager for the path secret, EKS for the API server, an EKS token).
    // A scenario written for Karpenter before v1 (v1beta1 NodePools and EC2NodeClasses) runs where
    // Karpenter's own CRDs of that version are installed, as its cluster had them; joiner's
    // installer then leaves them alone (it installs Karpenter's v1 CRDs only where they are absent).
    await ensureKinds(cloud.kube.store, preV1KarpenterManifests(scenario));
    await runInstaller(cloud, joinerInstallManifests(cloud), emit, { level: options.logLevel });
    await applyManifests(cloud.kube.store, scenario.cluster);
    cloud.ec2.addCapacityReservations(
      scenario.capacityReservations.map((r) => reservationSpec(r, cloud.clock.now())),
    );
    cloud.clock.startAuto(speed);
    started.virtual = cloud.clock.now();
    started.wall = Date.now();
    timeline.mark();
    const summarize = async (): Promise<ScenarioSummary> => {
      recorder.scanInstances();
      return buildSummary({
        name: scenario.name,
        cloud,
        recorder,
        disruptions,
        catalog,
        claims: await cloud.stateStore.listNodeClaims(),
        started,
        batchesClosed,
      });
    };
    const played = await playSteps(scenario.steps, {
      cloud,
      say,
      expect: async (step) =>
        checkExpectations(step.spec, await summarize(), recorder, placements).map((f) =>
          formatFailure(f, step.index),
        ),
      mark: (name) => placements.mark(name),
      nodesRemoved: () => disruptions.removedCount(),
    });
    const summary = await summarize();
    const failures = [
      ...played.failures,
      // joiner acts with the installer's RBAC: a refused request is a rule the ClusterRole lacks.
      ...cloud.kube.authorizer.denials().map((d) => `RBAC refused a request of joiner: ${d}`),
      // joiner acts with the stack's IAM: a refused call is a permission the stack lacks.
      ...unexpectedDenials(summary.iam, scenario.expectDenials),
      ...(scenario.expect
        ? checkExpectations(scenario.expect, summary, recorder, placements).map((f) => formatFailure(f))
        : []),
    ];
    notes.push(...played.notes, ...handlerErrors(cloud));
    const { stalls } = cloud.clock.wallSplit;
    if (stalls > 0)
      notes.push(
        `the clock found the simulator holding still with nothing to do ${stalls} time(s) and let time run (virtual times near those moments may be late)`,
      );
    const trace: ScenarioTrace = {
      startedAt: started.virtual,
      timeline: timeline.timeline(),
      actions: actionLog.actions(),
      latencySamples: latencySamples(recorder, await cloud.stateStore.listNodeClaims()),
      steps,
      pendingLatency: [...recorder.pods.values()]
        .flatMap((pod) =>
          pod.unschedulable && pod.running && pod.running.virtual >= pod.unschedulable.virtual
            ? [{ at: pod.unschedulable.virtual, ms: pod.running.virtual - pod.unschedulable.virtual }]
            : [],
        )
        .sort((a, b) => a.at - b.at),
      speed,
    };
    const result: ScenarioResult = { summary, failures, notes, ok: failures.length === 0, trace };
    await options.inspect?.(cloud, result);
    return result;
  } finally {
    recorder.stop();
    timeline.stop();
    disruptions.stop();
    placements.stop();
    await cloud.close();
  }
}

/**
 * The AWS SDK clients of the handlers take credentials from the process environment; the simulated
 * services accept any, so the simulator's static pair is set when none is (real ones stay untouched).
 */
export function useSimulatorCredentials(): void {
  if (process.env.AWS_ACCESS_KEY_ID && process.env.AWS_SECRET_ACCESS_KEY) return;
  process.env.AWS_ACCESS_KEY_ID = SIMULATOR_CREDENTIALS.accessKeyId;
  process.env.AWS_SECRET_ACCESS_KEY = SIMULATOR_CREDENTIALS.secretAccessKey;
}

/**
 * joiner's install manifests as the stack hands them to the installer: the webhook pointing at the
 * cloud's webhook function URL, the path secret still a placeholder.
 */
export function joinerInstallManifests(cloud: SimulatedCloud): Manifest[] {
  const base = 'https://webhook.joiner.invalid';
  const manifests = joinerManifests({ webhookUrl: `${base}/${WEBHOOK_SECRET_PLACEHOLDER}` });
  const url = cloud.webhookUrl.replace(/\/$/, '');
  return JSON.parse(JSON.stringify(manifests).replaceAll(base, url)) as Manifest[];
}

/**
 * joiner's install manifests with the webhook pointing at the cloud's webhook function URL and the
 * secret filled in (what the installer writes), for harnesses that apply them directly.
 */
export function installManifests(cloud: SimulatedCloud): Manifest[] {
  return withWebhookSecret(joinerInstallManifests(cloud), cloud.webhookSecret.value) as Manifest[];
}

function handlerErrors(cloud: SimulatedCloud): string[] {
  const errors = cloud.runner
    .invocations()
    .filter((i) => i.error !== undefined)
    .map((i) => `${i.functionName} (${i.trigger}): ${i.error}`);
  const distinct = [...new Set(errors)];
  return [...distinct.slice(0, 10), ...cloud.kube.problems().slice(0, 10)];
}

/** Karpenter groups whose pre-v1 versions joiner's installed v1 CRDs do not serve. */
const PRE_V1_KARPENTER = new Set(['karpenter.sh/v1beta1', 'karpenter.k8s.aws/v1beta1']);

/** The scenario's manifests (cluster and apply steps) of Karpenter's pre-v1 versions. */
function preV1KarpenterManifests(scenario: Scenario): Manifest[] {
  const applied = scenario.steps.flatMap((s) => (s.kind === 'apply' ? s.manifests : []));
  return [...scenario.cluster, ...applied].filter((m) => PRE_V1_KARPENTER.has(m.apiVersion));
}
