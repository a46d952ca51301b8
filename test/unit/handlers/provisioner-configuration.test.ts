/** A ConfigurationChanged message on the provisioning queue runs a pass for every pending pod. */
import { describe, expect, it } from 'vitest';
import { createProvisionerHandler } from '../../../functions/handlers/provisioner.js';
import { DETAIL_TYPES, JOINER_EVENT_SOURCE } from '../../../functions/shared/event-rules.js';
import { provisionerContext, provisioningRecord } from '../../builders/provisioning-event.js';
import { harness } from '../core/provisioning/harness.js';
import { seedCluster } from '../core/provisioning/seed-cluster.js';

const configurationChanged = (detail: object) =>
  JSON.stringify({
    id: 'evt-config-1',
    'detail-type': DETAIL_TYPES.configurationChanged,
    source: JOINER_EVENT_SOURCE,
    time: '2025-01-01T00:00:00Z',
    detail,
  });

describe('provisioner: a NodePool or NodeClass change', () => {
  it('plans and launches for the pods that were pending before the pool existed', async () => {
    const h = harness(await seedCluster('examples/seed-004'));
    const handler = createProvisionerHandler(() => h.deps);
    const record = provisioningRecord(
      'm1',
      configurationChanged({ group: 'karpenter.sh', kind: 'Provisioner', name: 'spot-general' }),
    );
    const response = await handler({ Records: [record] }, provisionerContext());
    expect(response).toEqual({ batchItemFailures: [] });
    expect(h.cloud.instances.length).toBeGreaterThan(0);
    expect(h.log.messages()).toContain('found 21 provisionable pod(s)');
  });

  it('a malformed ConfigurationChanged detail is a batch item failure', async () => {
    const h = harness(await seedCluster('examples/seed-004'));
    const handler = createProvisionerHandler(() => h.deps);
    const record = provisioningRecord('bad', configurationChanged({ group: 'karpenter.sh' }));
    const response = await handler({ Records: [record] }, provisionerContext());
    expect(response).toEqual({ batchItemFailures: [{ itemIdentifier: 'bad' }] });
    expect(h.cloud.instances).toHaveLength(0);
  });
});
