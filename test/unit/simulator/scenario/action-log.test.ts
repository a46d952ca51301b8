import { describe, expect, it } from 'vitest';
import { ActionLog } from '../../../../functions/simulator/scenario/action-log.js';

describe('ActionLog', () => {
  it("keeps joiner's launches, disruptions, replacements and interruptions with their time and fields", () => {
    const log = new ActionLog();
    log.read(
      '2026-01-01T00:00:04.739Z INFO provisioner launched nodeclaim {"nodeclaim":"multus-8e","instance-type":"c6i.2xlarge"}',
    );
    log.read('2026-01-01T00:00:05.000Z INFO provisioner found 2 provisionable pod(s) {"pods":2}');
    log.read(
      '2026-01-01T00:01:00.000Z INFO disruption disrupting node(s) via replace, terminating 1 node(s) (3 pods) n1/m5.large/on-demand and replacing with c5.large {"reason":"underutilized"}',
    );
    log.read('2026-01-01T00:02:00.000Z INFO disruption terminated node {"node":"n2","reason":"empty"}');
    log.read('2026-01-01T00:03:00.000Z INFO interruption interruption: draining node {"node":"n3"}');
    log.read(
      '2026-01-01T00:04:00.000Z WARN provisioner marked offering(s) unavailable, launching with the remaining options',
    );
    expect(log.actions().map((a) => [a.kind, a.function, a.at - Date.UTC(2026, 0, 1)])).toEqual([
      ['launch', 'provisioner', 4_739],
      ['replacement', 'disruption', 60_000],
      ['disruption', 'disruption', 120_000],
      ['interruption', 'interruption', 180_000],
      ['capacity', 'provisioner', 240_000],
    ]);
    expect(log.actions()[0].fields).toEqual({ nodeclaim: 'multus-8e', 'instance-type': 'c6i.2xlarge' });
    expect(log.actions()[2].fields).toEqual({ node: 'n2', reason: 'empty' });
  });

  it('ignores lines that are not log lines and keeps actions whose fields are not JSON', () => {
    const log = new ActionLog();
    log.read('scenario seed-000: 10 s virtual');
    log.read('not-a-time INFO provisioner launched nodeclaim');
    log.read('2026-01-01T00:00:01.000Z INFO provisioner launched nodeclaim {broken');
    expect(log.actions()).toHaveLength(1);
    expect(log.actions()[0].fields).toEqual({});
  });
});
