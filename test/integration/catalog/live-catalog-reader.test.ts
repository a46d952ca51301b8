import { DescribeInstanceTypesCommand } from '@aws-sdk/client-ec2';
import { GetProductsCommand, PricingClient } from '@aws-sdk/client-pricing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createLiveCatalogClients,
  type LiveCatalogClients,
  readSnapshot,
} from '../../../functions/adapters/aws/live-catalog-reader.js';
import { createPricingClient } from '../../../functions/adapters/aws/pricing-client.js';
import { bundledCatalog } from '../../../functions/core/catalog/bundled.js';
import { catalogFromSnapshot } from '../../../functions/core/catalog/live/catalog-snapshot.js';
import { parseCatalog } from '../../../functions/core/catalog/parse-catalog.js';
import type { Catalog } from '../../../functions/core/model/instance-type.js';
import { type SimulatedCloud, startSimulatedCloud } from '../../../functions/simulator/cloud.js';
import { SIMULATOR_CREDENTIALS } from '../../../functions/simulator/sqs/sqs-simulator.js';

let cloud: SimulatedCloud;
let clients: LiveCatalogClients;

beforeAll(async () => {
  cloud = await startSimulatedCloud({ region: 'ap-southeast-2' });
  clients = createLiveCatalogClients({
    region: cloud.region,
    ec2Endpoint: cloud.endpoints.ec2,
    pricingEndpoint: cloud.endpoints.pricing,
    credentials: SIMULATOR_CREDENTIALS,
  });
});

afterAll(async () => {
  clients.ec2.destroy();
  clients.pricing.destroy();
  await cloud.close();
});

/** Offerings of a catalog as sorted `type zone capacity price` lines. */
function offerings(catalog: Catalog): string[] {
  return catalog.instanceTypes
    .flatMap((t) => t.offerings.map((o) => `${t.name} ${o.zone} ${o.capacityType} ${o.price}`))
    .sort();
}

describe('the live catalog read from the simulated cloud (ap-southeast-2)', () => {
  it('is the region’s catalog: only the types offered there, in its zones, at its prices', async () => {
    const { snapshot, skipped } = await readSnapshot(clients, cloud.clock.now());
    expect(skipped).toEqual([]);
    const live = catalogFromSnapshot(snapshot);
    expect(live.region).toBe('ap-southeast-2');
    expect(offerings(live)).toEqual(offerings(cloud.catalog));
    expect(live.instanceTypes.some((t) => t.name.startsWith('c6a.'))).toBe(false);
    expect(bundledCatalog.instanceTypes.some((t) => t.name.startsWith('c6a.'))).toBe(true);
    expect(snapshot.types.zones.map((z) => z.name)).toEqual([
      'ap-southeast-2a',
      'ap-southeast-2b',
      'ap-southeast-2c',
    ]);
    // The facts survive the wire: what the catalog says of a type, the live catalog says too.
    for (const served of cloud.catalog.instanceTypes) {
      const { offerings: _a, ...facts } = live.instanceTypes.find((t) => t.name === served.name) ?? {};
      const { offerings: _b, ...expected } = served;
      expect(facts, served.name).toEqual(expected);
    }
    // And it is a catalog in the documented format.
    expect(() => parseCatalog(JSON.parse(JSON.stringify(live)), 'live')).not.toThrow();
  });

  it('carries Neuron accelerators, EBS bandwidth, CPU manufacturer and clock speed over the wire', async () => {
    const inf2 = {
      name: 'inf2.xlarge',
      vcpu: 4,
      memoryMiB: 16384,
      arch: 'amd64' as const,
      accelerators: { count: 1, name: 'Inferentia2', manufacturer: 'AWS', coresPerDevice: 2 },
      maxEnis: 4,
      ipv4PerEni: 15,
      networkCards: 1,
      localNvmeGiB: 0,
      networkBandwidthMbps: 2000,
      ebsBandwidthMbps: 1250,
      hypervisor: 'nitro' as const,
      encryptionInTransit: true,
      cpuManufacturer: 'AMD',
      sustainedClockSpeedMhz: 2900,
      offerings: [{ zone: 'eu-west-1a', capacityType: 'on-demand' as const, price: 0.7582 }],
    };
    const small = await startSimulatedCloud({ catalog: { region: 'eu-west-1', instanceTypes: [inf2] } });
    const smallClients = createLiveCatalogClients({
      region: 'eu-west-1',
      ec2Endpoint: small.endpoints.ec2,
      pricingEndpoint: small.endpoints.pricing,
      credentials: SIMULATOR_CREDENTIALS,
    });
    try {
      const live = catalogFromSnapshot((await readSnapshot(smallClients, small.clock.now())).snapshot);
      expect(live.instanceTypes).toEqual([inf2]);
    } finally {
      smallClients.ec2.destroy();
      smallClients.pricing.destroy();
      await small.close();
    }
  });

  it('pages through every call (the answers are larger than one page)', async () => {
    const page = await clients.ec2.send(new DescribeInstanceTypesCommand({ MaxResults: 5 }));
    expect(page.InstanceTypes).toHaveLength(5);
    expect(page.NextToken).toBeDefined();
    const products = await clients.pricing.send(
      new GetProductsCommand({ ServiceCode: 'AmazonEC2', MaxResults: 10 }),
    );
    expect(products.PriceList).toHaveLength(10);
    expect(JSON.parse(String(products.PriceList?.[0])).product.attributes.operatingSystem).toBeDefined();
    expect(products.NextToken).toBeDefined();
  });

  it('follows the market: a spot price change and a withdrawn offering', async () => {
    cloud.ec2.setSpotPrice('m5.large', 'ap-southeast-2a', 0.0123);
    cloud.ec2.setOffering('m5.large', 'ap-southeast-2b', 'spot', false);
    await cloud.clock.advance(60_000);
    const live = catalogFromSnapshot((await readSnapshot(clients, cloud.clock.now())).snapshot);
    const m5 = offerings(live).filter((line) => line.startsWith('m5.large ') && line.includes(' spot '));
    expect(m5).toEqual([
      'm5.large ap-southeast-2a spot 0.0123',
      expect.stringMatching(/^m5.large ap-southeast-2c spot /),
    ]);
    cloud.ec2.setOffering('m5.large', 'ap-southeast-2b', 'spot', true);
    expect(() => cloud.ec2.setSpotPrice('nope.large', 'ap-southeast-2a', 1)).toThrow(
      'no instance type nope.large in the simulated region ap-southeast-2',
    );
    expect(() => cloud.ec2.setOffering('m5.large', 'us-west-2a', 'spot', false)).toThrow(
      'm5.large has no spot offering in us-west-2a',
    );
  });

  it('the simulated Pricing API refuses bad requests the way the real one does', async () => {
    const send = (input: ConstructorParameters<typeof GetProductsCommand>[0]) =>
      clients.pricing.send(new GetProductsCommand(input));
    await expect(send({ ServiceCode: 'AmazonS3' })).rejects.toMatchObject({ name: 'NotFoundException' });
    await expect(
      send({
        ServiceCode: 'AmazonEC2',
        Filters: [{ Type: 'CONTAINS' as never, Field: 'instanceType', Value: 'm5' }],
      }),
    ).rejects.toThrow(/Filters\[0\] needs Type TERM_MATCH/);
    await expect(send({ ServiceCode: 'AmazonEC2', NextToken: 'garbage' })).rejects.toMatchObject({
      name: 'InvalidNextTokenException',
    });
    await expect(send({ ServiceCode: 'AmazonEC2', MaxResults: 500 })).rejects.toThrow(
      /MaxResults must be between 1 and 100/,
    );
  });

  it('is answered by the simulated Pricing API only when signed for a region that hosts it', async () => {
    const right = createPricingClient({
      region: 'ap-southeast-2',
      endpoint: cloud.endpoints.pricing,
      credentials: SIMULATOR_CREDENTIALS,
    });
    const wrong = new PricingClient({
      region: 'ap-southeast-2',
      endpoint: cloud.endpoints.pricing,
      credentials: SIMULATOR_CREDENTIALS,
    });
    const query = new GetProductsCommand({ ServiceCode: 'AmazonEC2', MaxResults: 1 });
    await expect(right.send(query)).resolves.toBeDefined();
    await expect(wrong.send(query)).rejects.toThrow(/not available in ap-southeast-2/);
    right.destroy();
    wrong.destroy();
  });
});
