import { type Command, Option } from 'commander';
import { withExamples } from './help-text.js';

/** Options of `joiner catalog fetch`. */
export interface CatalogFetchOptions {
  readonly region: string;
  readonly outputFile: string;
  /** EC2 endpoint override (e.g. the simulated cloud's). */
  readonly ec2Endpoint?: string;
  /** Pricing endpoint override (e.g. the simulated cloud's). */
  readonly pricingEndpoint?: string;
}

/**
 * Registers `joiner catalog fetch --region R --output-file FILE`: reads the region's instance
 * types, zone offerings, on-demand prices (Pricing API) and current spot prices with the user's
 * AWS credentials (the SDK's default chain: environment, profile, SSO, ...) and writes a catalog
 * file in the documented format (docs/catalog.md) that `joiner plan --catalog` and `joiner
 * simulate --catalog` read. `-o` means an output format in every other command, so the file is
 * `--output-file`; the former `-o, --output FILE` still works, with a deprecation notice.
 */
export function registerCatalog(program: Command): void {
  const catalog = program.command('catalog').description('Instance catalogs (docs/catalog.md).');
  withExamples(catalog, [
    [
      'joiner catalog fetch --region eu-west-1 --output-file eu-west-1.json',
      'see joiner catalog fetch --help',
    ],
  ]);
  const fetch = catalog
    .command('fetch')
    .description(
      "Write a catalog file of a region's instance types, offerings and today's prices, read from the live EC2 and Pricing APIs " +
        '(needs ec2:DescribeInstanceTypes, ec2:DescribeInstanceTypeOfferings, ec2:DescribeAvailabilityZones, ' +
        'ec2:DescribeSpotPriceHistory and pricing:GetProducts).\n' +
        'Exit 0 when the file is written, 1 when AWS refuses or answers nothing usable, 2 on bad input.',
    )
    .requiredOption('--region <region>', 'AWS region, e.g. eu-west-1')
    .option('--output-file <file>', 'catalog JSON file to write (required)')
    .addOption(new Option('-o, --output <file>', 'deprecated: use --output-file').hideHelp())
    .option('--ec2-endpoint <url>', 'EC2 endpoint (default: the region’s)')
    .option('--pricing-endpoint <url>', 'Pricing endpoint (default: the region’s nearest Pricing endpoint)')
    .action(
      async (
        options: Omit<CatalogFetchOptions, 'outputFile'> & { outputFile?: string; output?: string },
        command: Command,
      ) => {
        if (options.output !== undefined) {
          console.error(
            'joiner catalog fetch: -o/--output FILE is deprecated (-o is a format elsewhere): use --output-file FILE',
          );
        }
        const outputFile = options.outputFile ?? options.output;
        if (outputFile === undefined) {
          command.error("error: required option '--output-file <file>' not specified", {
            exitCode: 2,
            code: 'joiner.missingOutputFile',
          });
          return;
        }
        const { catalogFetch } = await import('./catalog-fetch.js');
        process.exitCode = await catalogFetch({ ...options, outputFile });
      },
    );
  withExamples(fetch, [
    ['joiner catalog fetch --region eu-west-1 --output-file eu-west-1.json', 'with your AWS credentials'],
    ['joiner plan examples/seed-002 --catalog eu-west-1.json', 'then plan with it'],
  ]);
}
