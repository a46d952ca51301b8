/** Deps of a provisioning run over the in-memory fakes, with a manual clock. */
import { bundledCatalog } from '../../../../functions/core/catalog/bundled.js';
import type { ProvisionDeps } from '../../../../functions/core/provisioning/types.js';
import { FakeCloud, type FakeCluster, MemoryStore, RecordingLog } from './fakes.js';

/** A timer scheduler that records its wake-ups. */
export class RecordingTimers {
  scheduled: { nodeClaimId: string; dueAt: number }[] = [];
  async schedule(nodeClaimId: string, dueAt: number) {
    this.scheduled.push({ nodeClaimId, dueAt });
  }
}

/** The fakes and the deps built from them. */
export interface Harness {
  readonly cluster: FakeCluster;
  readonly store: MemoryStore;
  readonly cloud: FakeCloud;
  readonly log: RecordingLog;
  readonly timers: RecordingTimers;
  readonly clock: { now(): number; advance(ms: number): void };
  readonly deps: ProvisionDeps;
}

export const START = Date.UTC(2025, 0, 1);

/** A harness around `cluster`. */
export function harness(cluster: FakeCluster): Harness {
  let now = START;
  const clock = {
    now: () => now,
    advance: (ms: number) => {
      now += ms;
    },
  };
  const store = new MemoryStore();
  const cloud = new FakeCloud();
  const log = new RecordingLog();
  const timers = new RecordingTimers();
  const deps: ProvisionDeps = {
    cluster,
    store,
    cloud,
    log,
    timers,
    clock,
    catalog: bundledCatalog,
    sleep: async () => {},
  };
  return { cluster, store, cloud, log, timers, clock, deps };
}
