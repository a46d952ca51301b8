import { type Command, InvalidArgumentError } from 'commander';
import type { SimulatedCloud } from '../../functions/simulator/cloud.js';

interface SimUpOptions {
  readonly catalog?: string;
  readonly seed: number;
  readonly speed: number;
  readonly nodeRole: string[];
}

/**
 * Registers `joiner sim`: `joiner sim up` starts the simulated cloud (Kubernetes API server, EC2,
 * IAM, SSM, EventBridge, SQS, DynamoDB on 127.0.0.1), prints one JSON line with the endpoints and the
 * kubeconfig path, and serves until SIGINT or SIGTERM.
 */
export function registerSim(program: Command): void {
  const sim = program
    .command('sim')
    .description('Run the simulated cloud joiner is tested against (real wire protocols on 127.0.0.1).');
  sim
    .command('up')
    .description(
      'Start the simulated cloud, print {"kubernetes","ec2","iam","ssm","eventbridge","sqs","dynamodb","kubeconfig"} ' +
        'as one JSON line on stdout, and serve until interrupted (SIGINT/SIGTERM stop it cleanly).',
    )
    .option('--catalog <file>', 'instance catalog JSON (default: the bundled catalog)')
    .option('--seed <n>', 'seed of the simulated randomness (same seed, same cloud)', parseInteger, 1)
    .option('--speed <x>', 'virtual seconds per wall-clock second', parseSpeed, 1)
    .option(
      '--node-role <name>',
      'an IAM role EC2NodeClasses may name in role (it exists, and joiner may pass it); repeatable',
      (value: string, all: string[]) => [...all, value],
      [] as string[],
    )
    .action(async (options: SimUpOptions) => {
      process.exitCode = await simUp(options);
    });
}

async function simUp(options: SimUpOptions): Promise<number> {
  let cloud: SimulatedCloud;
  try {
    const [{ readCatalog }, { startSimulatedCloud }] = await Promise.all([
      import('../../functions/adapters/files/read-catalog.js'),
      import('../../functions/simulator/cloud.js'),
    ]);
    const catalog = options.catalog ? await readCatalog(options.catalog) : undefined;
    cloud = await startSimulatedCloud({
      catalog,
      seed: options.seed,
      autoAdvance: options.speed,
      nodeRoles: options.nodeRole,
    });
  } catch (error) {
    console.error(`joiner sim up: ${error instanceof Error ? error.message : String(error)}`);
    return 1;
  }
  process.stdout.write(`${JSON.stringify({ ...cloud.endpoints, kubeconfig: cloud.kubeconfigPath })}\n`);
  const signal = await new Promise<NodeJS.Signals>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  console.error(`joiner sim up: ${signal}, stopping`);
  await cloud.close();
  return 0;
}

function parseInteger(value: string): number {
  if (!/^-?\d+$/.test(value)) throw new InvalidArgumentError(`expected an integer, got '${value}'`);
  return Number(value);
}

function parseSpeed(value: string): number {
  const speed = Number(value);
  if (!Number.isFinite(speed) || speed <= 0) {
    throw new InvalidArgumentError(`expected a positive number, got '${value}'`);
  }
  return speed;
}
