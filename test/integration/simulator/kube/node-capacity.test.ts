import { describe, expect, it } from 'vitest';
import { bundledCatalog } from '../../../../functions/core/catalog/bundled.js';
import { parseBytes } from '../../../../functions/core/model/quantity.js';
import { nodeResources } from '../../../../functions/simulator/kube/kubelet/node-capacity.js';

const m5d = bundledCatalog.instanceTypes.find((t) => t.name === 'm5d.large')!;

describe('simulated kubelet capacity', () => {
  it('reports the instance store as ephemeral storage only when the user data builds the RAID0 array', () => {
    const storage = (r: ReturnType<typeof nodeResources>) => parseBytes(r.capacity['ephemeral-storage']);
    // m5d.large: 75 GB of NVMe (decimal, as EC2 reports it).
    expect(storage(nodeResources(m5d, { instanceStorePolicy: 'RAID0' }))).toBe(75e9);
    expect(storage(nodeResources(m5d, {}))).toBe(20 * 2 ** 30);
  });
});
