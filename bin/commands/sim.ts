import type { Command } from 'commander';
import type { SimulatedCloud } from '../../functions/simulator/cloud.js';
import { withExamples } from './help-text.js';
import { parseSeed, parseSpeed } from './option-values.js';

interface SimUpOptions {
  readonly catalog?: string;
  readonly seed: number;
  readonly speed: number;
  readonly nodeRole: string[];
  readonly log: boolean;
  /** commander's `--no-iam`: false turns IAM off. */
  readonly iam: boolean;
  readonly stackTemplate?: string;
}

/**
 * Registers `joiner sim`: `joiner sim up` runs the whole system in the simulated cloud (Kubernetes
 * API server, EC2, IAM, SSM, EventBridge, SQS, DynamoDB on 127.0.0.1, with joiner installed as
 * `cdk deploy` installs it: CRDs, RBAC, webhook, functions on the Lambda runner), prints one JSON
 * line with the endpoints and the kubeconfig path, how to use them, and serves until SIGINT or SIGTERM.
 */
export function registerSim(program: Command): void {
  const sim = program
    .command('sim')
    .description('Run the simulated cloud joiner is tested against (real wire protocols on 127.0.0.1).');
  withExamples(sim, [
    ['joiner sim up', 'run joiner in the simulated cloud until Ctrl-C (see joiner sim up --help)'],
  ]);
  const up = sim
    .command('up')
    .description(
      'Run joiner in the simulated cloud (installed as cdk deploy installs it) until Ctrl-C. Prints ' +
        '{"kubernetes","ec2","iam","ssm","eventbridge","sqs","dynamodb","pricing","kubeconfig"} as one JSON line on stdout, ' +
        'then how to point kubectl and the AWS CLI at it on stderr, then joiner’s log on stdout.\n' +
        'Exit 0 when stopped by Ctrl-C or SIGTERM, 1 when the simulated cloud cannot start, 2 on bad input.',
    )
    .option('--catalog <file>', 'instance catalog JSON (default: the bundled catalog)')
    .option('--seed <n>', 'seed of the simulated randomness (same seed, same cloud)', parseSeed, 1)
    .option(
      '--speed <x>',
      'virtual seconds per wall-clock second; above 1 the cluster’s clock runs ahead of yours, so ages kubectl computes itself (describe) show <invalid>',
      parseSpeed,
      1,
    )
    .option(
      '--node-role <name>',
      'an IAM role EC2NodeClasses may name in role (it exists, and joiner may pass it); repeatable',
      (value: string, all: string[]) => [...all, value],
      [] as string[],
    )
    .option('--no-log', 'do not print joiner’s log')
    .option(
      '--stack-template <file>',
      'enforce the IAM of an already synthesized stack (template file or `cdk synth -o DIR`) instead of synthesizing joiner’s stack',
    )
    .option('--no-iam', 'DEBUGGING ONLY: turn the simulated account’s IAM off (every AWS call is allowed)')
    .action(async (options: SimUpOptions) => {
      process.exitCode = await simUp(options);
    });
  withExamples(up, [
    ['joiner sim up', 'start it; then in another shell: export KUBECONFIG=… (printed) and kubectl get nodes'],
    ['joiner sim up --speed 10 --no-log', 'ten virtual seconds per second, without joiner’s log'],
    ['joiner sim up --catalog eu-west-1.json --seed 7', 'another catalog and seed'],
  ]);
}

async function simUp(options: SimUpOptions): Promise<number> {
  let cloud: SimulatedCloud;
  // joiner's log goes to stdout after the endpoints line, so that line is always the first.
  let held: string[] | undefined = [];
  const log = (line: string): void => {
    if (held) held.push(line);
    else process.stdout.write(`${line}\n`);
  };
  try {
    const [{ readCatalog }, { startSystem }] = await Promise.all([
      import('../../functions/adapters/files/read-catalog.js'),
      import('../../functions/simulator/system/start-system.js'),
    ]);
    let catalog: Awaited<ReturnType<typeof readCatalog>> | undefined;
    try {
      catalog = options.catalog ? await readCatalog(options.catalog) : undefined;
      if (options.stackTemplate) {
        // A template that is not joiner's stack is bad input (exit 2), found before anything starts.
        const { loadStackTemplate } = await import(
          '../../functions/simulator/iam/authorization/stack-template-file.js'
        );
        loadStackTemplate(options.stackTemplate);
      }
    } catch (error) {
      console.error(`joiner sim up: ${error instanceof Error ? error.message : String(error)}`);
      return 2;
    }
    cloud = await startSystem({
      catalog,
      seed: options.seed,
      speed: options.speed,
      nodeRoles: options.nodeRole,
      onLog: options.log ? log : undefined,
      iam: options.iam,
      stackTemplate: options.stackTemplate,
    });
  } catch (error) {
    console.error(`joiner sim up: ${error instanceof Error ? error.message : String(error)}`);
    return 1;
  }
  process.stdout.write(`${JSON.stringify({ ...cloud.endpoints, kubeconfig: cloud.kubeconfigPath })}\n`);
  process.stderr.write(`${usage(cloud)}\n`);
  if (options.speed > 1) {
    process.stderr.write(
      `  --speed ${options.speed}: the cluster's clock runs ahead of the wall clock; kubectl get shows the\n` +
        "  cluster's ages, but ages kubectl computes itself (describe) show <invalid>.\n\n",
    );
  }
  for (const line of held) process.stdout.write(`${line}\n`);
  held = undefined;
  const signal = await new Promise<NodeJS.Signals>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  console.error(`joiner sim up: ${signal}, stopping`);
  await cloud.close();
  return 0;
}

function usage(cloud: SimulatedCloud): string {
  const e = cloud.endpoints;
  return [
    `joiner is running in the simulated cloud (cluster ${cloud.clusterName}, region ${cloud.region}); Ctrl-C stops it.`,
    '',
    `  export KUBECONFIG=${cloud.kubeconfigPath}`,
    '  kubectl get nodepools,nodeclaims',
    '',
    cloud.account
      ? '  AWS endpoints (the account administrator: AWS_ACCESS_KEY_ID=joiner AWS_SECRET_ACCESS_KEY=simulated;\n' +
        '  joiner’s functions sign as their own roles, and IAM decides their calls as the stack’s policies say):'
      : '  AWS endpoints (IAM is OFF, --no-iam: any credentials, every call allowed):',
    `    EC2          ${e.ec2}`,
    `    IAM          ${e.iam}`,
    `    SSM          ${e.ssm}`,
    `    EventBridge  ${e.eventbridge}`,
    `    SQS          ${e.sqs}`,
    `    DynamoDB     ${e.dynamodb}   (table ${cloud.tableName})`,
    `  e.g. aws --endpoint-url ${e.ec2} --region ${cloud.region} ec2 describe-instances`,
    '',
  ].join('\n');
}
