/**
 * The simulated Kubernetes control plane: an API server on 127.0.0.1 speaking the real REST
 * protocol, a kube-scheduler, workload controllers and kubelets for the instances the simulated
 * EC2 launches. Everything timed runs on the virtual clock.
 */
import type { Catalog } from '../../core/model/instance-type.js';
import type { SeededRandom, VirtualClock } from '../clock.js';
import type { FaultInjector } from '../faults.js';
import type { InstanceObserver } from '../instance.js';
import type { ApiLatency } from '../latency/api-latency.js';
import { validatingWebhookAdmission } from './admission/validating-webhooks.js';
import { ClusterStore } from './api/cluster-store.js';
import { KubeApi } from './api/kube-api.js';
import { ObjectStore } from './api/object-store.js';
import { ResourceRegistry } from './api/resource-registry.js';
import { AccessEntries, type AccessEntry, type TokenSigner } from './auth/access-entries.js';
import { RequestAuthorizer } from './auth/request-authorizer.js';
import { ControlLoop } from './control-loop.js';
import { DisruptionLedger, type LostPod, type PdbViolation } from './disruption-ledger.js';
import { startApiHttpServer } from './http/api-server.js';
import { kubeconfigYaml } from './kubeconfig.js';
import { Kubelets } from './kubelet/kubelets.js';
import { KubeScheduler } from './scheduler/kube-scheduler.js';
import { TaskRunner } from './task-runner.js';
import { type KubeTimings, resolveTimings } from './timings.js';

/** Options of the simulated control plane. */
export interface KubeSimulatorOptions {
  readonly clock: VirtualClock;
  readonly random: SeededRandom;
  readonly catalog: Catalog;
  /** Default `us-west-2`. */
  readonly region?: string;
  readonly timings?: Partial<KubeTimings>;
  /** Watch history kept for resumption (events); older resourceVersions get 410 Gone. Default 5000. */
  readonly historyLimit?: number;
  /**
   * Requests without credentials act as `system:anonymous` (RBAC decides) instead of getting 401.
   * kubectl sends no credentials to a plain-HTTP server. Default false.
   */
  readonly anonymousAuth?: boolean;
  /** Modeled latency of API requests (virtual time); none when absent. */
  readonly latency?: ApiLatency;
  /** Faults of the HTTP API (service `kubernetes`, action = HTTP method), for chaos tests. */
  readonly faults?: FaultInjector;
  /** Who signed an EKS token (see AccessEntries): EKS tokens are refused without it. */
  readonly tokenSigner?: TokenSigner;
}

/** A running simulated control plane. */
export interface KubeSimulator {
  /** `http://127.0.0.1:PORT`. */
  readonly url: string;
  /**
   * Kubeconfig YAML pointing at `url`: the cluster creator's (a cluster admin) by default, or the
   * one of a principal given an access entry (its requests are authorized by RBAC).
   */
  kubeconfig(entry?: AccessEntry): string;
  /** Creates an access entry (its principal's EKS tokens then authenticate; see AccessEntries). */
  addAccessEntry(entry: AccessEntry): void;
  /** The simulated EC2 reports instance lifecycle here; kubelets register the nodes. */
  readonly observer: InstanceObserver;
  /** Authentication and RBAC of the HTTP API: refused requests, permissions each user used. */
  readonly authorizer: RequestAuthorizer;
  /** Direct in-process access (get / list / create / apply / patch / delete). */
  readonly store: ClusterStore;
  /** Ends every open watch, as a watch timeout or an API server restart does; clients re-watch. */
  endWatches(): void;
  /** Runs one simulated kube-scheduler pass (after the pending controller work). */
  scheduleNow(): Promise<void>;
  /** Resolves when the controllers, scheduler and kubelets have nothing left to do right now. */
  idle(): Promise<void>;
  /**
   * Errors of background work (controllers, kubelets), instances whose user data was unusable,
   * and requests RBAC refused (403).
   */
  problems(): string[];
  /**
   * PodDisruptionBudgets left below their desired healthy pods by a pod deleted, evicted or lost
   * with its node, in the order they happened (see {@link DisruptionLedger}).
   */
  disruptionViolations(): readonly PdbViolation[];
  /** Workload pods still Running when their node or instance vanished, in the order they were lost. */
  podsLost(): readonly LostPod[];
  /** Stops the server, the watches and every timer. */
  close(): Promise<void>;
}

const SYSTEM_NAMESPACES = ['default', 'kube-system', 'kube-public', 'kube-node-lease'];

/** Starts the simulated control plane. */
export async function startKubeSimulator(options: KubeSimulatorOptions): Promise<KubeSimulator> {
  const { clock, random } = options;
  const timings = resolveTimings(options.timings);
  const api = new KubeApi(new ResourceRegistry(), new ObjectStore(options.historyLimit), clock, random);
  const nsType = api.typeOf('v1', 'Namespace');
  for (const name of SYSTEM_NAMESPACES) {
    await api.create(nsType, undefined, { metadata: { name }, status: { phase: 'Active' } });
  }
  api.setAdmission(validatingWebhookAdmission(api, random, clock));
  const ledger = new DisruptionLedger(api, clock);
  const tasks = new TaskRunner(clock.activity);
  const scheduler = new KubeScheduler(api);
  const kubelets = new Kubelets(
    api,
    clock,
    random,
    options.catalog,
    options.region ?? 'us-west-2',
    timings,
    tasks,
  );
  const loop = new ControlLoop(api, scheduler, tasks, clock, timings.schedulerIntervalMs);
  const access = new AccessEntries(options.anonymousAuth, options.tokenSigner);
  const authorizer = new RequestAuthorizer(api, access);
  const http = await startApiHttpServer(api, authorizer, 0, options.latency, options.faults);
  let closed = false;
  const repeat = (periodMs: number, fn: () => void): void => {
    const tick = (): void => {
      if (closed) return;
      fn();
      clock.setTimeout(tick, periodMs);
    };
    clock.setTimeout(tick, periodMs);
  };
  repeat(timings.bookmarkIntervalMs, () => http.bookmarkAll());
  return {
    url: http.url,
    kubeconfig: (entry) => kubeconfigYaml(http.url, entry && access.addAccessEntry(entry)),
    addAccessEntry: (entry) => void access.addAccessEntry(entry),
    observer: kubelets,
    authorizer,
    store: new ClusterStore(api),
    endWatches: () => http.endWatches(),
    scheduleNow: async () => {
      await loop.idle();
      await tasks.run('scheduler', () => scheduler.pass());
    },
    idle: () => loop.idle(),
    problems: () => [
      ...tasks.errors,
      ...kubelets.failures.map((f) => `instance ${f.instanceId}: ${f.reason}`),
      ...authorizer.denials().map((d) => `forbidden ${d}`),
    ],
    disruptionViolations: () => [...ledger.violations],
    podsLost: () => [...ledger.lost],
    close: async () => {
      closed = true;
      loop.stop();
      ledger.stop();
      await tasks.close();
      await http.close();
    },
  };
}
