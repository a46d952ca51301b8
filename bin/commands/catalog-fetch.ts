import { writeFile } from 'node:fs/promises';
import { createLiveCatalogClients, readSnapshot } from '../../functions/adapters/aws/live-catalog-reader.js';
import { catalogFromSnapshot } from '../../functions/core/catalog/live/catalog-snapshot.js';
import { parseCatalog } from '../../functions/core/catalog/parse-catalog.js';
import type { CatalogFetchOptions } from './catalog.js';

const REGION = /^[a-z]{2}(-[a-z]+)+-\d+$/;

/** Runs `joiner catalog fetch`; returns the exit code (errors are printed, naming what failed). */
export async function catalogFetch(options: CatalogFetchOptions): Promise<number> {
  if (!REGION.test(options.region)) {
    console.error(
      `joiner catalog fetch: --region "${options.region}" is not an AWS region such as eu-west-1`,
    );
    return 2;
  }
  const clients = createLiveCatalogClients({
    region: options.region,
    ec2Endpoint: options.ec2Endpoint,
    pricingEndpoint: options.pricingEndpoint,
  });
  try {
    const { snapshot, skipped } = await readSnapshot(clients, Date.now());
    const catalog = catalogFromSnapshot(snapshot);
    if (catalog.instanceTypes.length === 0) {
      console.error(`joiner catalog fetch: ${options.region} answered no offered and priced instance type`);
      return 1;
    }
    parseCatalog(JSON.parse(JSON.stringify(catalog)), options.outputFile);
    await writeFile(options.outputFile, `${JSON.stringify(catalog, null, 1)}\n`);
    const offerings = catalog.instanceTypes.reduce((n, t) => n + t.offerings.length, 0);
    console.error(
      `joiner catalog fetch: wrote ${options.outputFile}: ${catalog.instanceTypes.length} instance types, ${offerings} offerings in ${options.region}` +
        (skipped.length > 0
          ? ` (${skipped.length} entries left out, e.g. ${skipped[0].at}: ${skipped[0].reason})`
          : ''),
    );
    return 0;
  } catch (error) {
    console.error(`joiner catalog fetch: ${options.region}: ${(error as Error).message}`);
    return 1;
  } finally {
    clients.ec2.destroy();
    clients.pricing.destroy();
  }
}
