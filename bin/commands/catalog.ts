import type { Command } from 'commander';

/** Options of `joiner catalog fetch`. */
export interface CatalogFetchOptions {
  readonly region: string;
  readonly output: string;
  /** EC2 endpoint override (e.g. the simulated cloud's). */
  readonly ec2Endpoint?: string;
  /** Pricing endpoint override (e.g. the simulated cloud's). */
  readonly pricingEndpoint?: string;
}

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
      const { catalogFetch } = await import('./catalog-fetch.js');
      process.exitCode = await catalogFetch(options);
    });
}
