import { writeFile } from 'node:fs/promises';
import type { Command } from 'commander';
import { createLiveCatalogClients, readSnapshot } from '../../functions/adapters/aws/live-catalog-reader.js';
import { catalogFromSnapshot } from '../../functions/core/catalog/live/catalog-snapshot.js';
import { parseCatalog } from '../../functions/core/catalog/parse-catalog.js';

/** Options of `joiner catalog fetch`. */
export interface CatalogFetchOptions {
  readonly region: string;
  readonly output: string;
  /** EC2 endpoint override (e.g. the simulated cloud's). */
  readonly ec2Endpoint?: string;
  /** Pricing endpoint override (e.g. the simulated cloud's). */
  readonly pricingEndpoint?: string;
}

const REGION = /^[a-z]{2}(-[a-z]+)+-\d+$/;

/**
 * Registers `joiner catalog fetch --region R -o FILE`: reads the region's instance types, zone
 * offerings, on-demand prices (Pricing API) and current spot prices with the user's AWS
 * credentials (the SDK's default chain: environment, profile, SSO, ...) and writes a catalog file
 * in the documented format (docs/catalog.md) that `joiner plan --catalog` and `joiner simulate
 * --catalog` read.
 */
export function registerCatalog(program: Command): void {
  const catalog = program.command('catalog').description('Instance catalogs (docs/catalog.md).');
  catalog
    .command('fetch')
    .description(
      "Write a catalog file of a region's instance types, offerings and today's prices, read from the live EC2 and Pricing APIs " +
        '(needs ec2:DescribeInstanceTypes, ec2:DescribeInstanceTypeOfferings, ec2:DescribeAvailabilityZones, ' +
        'ec2:DescribeSpotPriceHistory and pricing:GetProducts).',
    )
    .requiredOption('--region <region>', 'AWS region, e.g. eu-west-1')
    .requiredOption('-o, --output <file>', 'catalog JSON file to write')
    .option('--ec2-endpoint <url>', 'EC2 endpoint (default: the region’s)')
    .option('--pricing-endpoint <url>', 'Pricing endpoint (default: the region’s nearest Pricing endpoint)')
    .action(async (options: CatalogFetchOptions) => {
      process.exitCode = await catalogFetch(options);
    });
}

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
    parseCatalog(JSON.parse(JSON.stringify(catalog)), options.output);
    await writeFile(options.output, `${JSON.stringify(catalog, null, 1)}\n`);
    const offerings = catalog.instanceTypes.reduce((n, t) => n + t.offerings.length, 0);
    console.error(
      `joiner catalog fetch: wrote ${options.output}: ${catalog.instanceTypes.length} instance types, ${offerings} offerings in ${options.region}` +
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
