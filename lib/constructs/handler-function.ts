import { Duration, Validations } from 'aws-cdk-lib';
import type { ISecurityGroup, ISubnet, IVpc } from 'aws-cdk-lib/aws-ec2';
import type { IRole } from 'aws-cdk-lib/aws-iam';
import { Architecture, Code, Function as LambdaFunction, Runtime } from 'aws-cdk-lib/aws-lambda';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import { ENV } from '../../functions/shared/env.js';
import { FUNCTIONS, type FunctionName } from '../../functions/shared/event-sources.js';
import { METRICS_NAMESPACE } from '../../functions/shared/metrics.js';
import { bundleHandler } from '../handler-bundle.js';

/** Log levels of the Powertools logger. */
export type LogLevel = 'DEBUG' | 'INFO' | 'WARN' | 'ERROR';

/** Properties of {@link HandlerFunction}. */
export interface HandlerFunctionProps {
  /** Which of joiner's functions (timeout, memory and concurrency come from the shared description). */
  readonly name: FunctionName;
  /** The execution role (joiner shares roles between functions that need the same access). */
  readonly role: IRole;
  /** Environment variables besides the Powertools ones. */
  readonly environment?: Readonly<Record<string, string>>;
  /** @default 'INFO' */
  readonly logLevel?: LogLevel;
  /**
   * How long CloudWatch keeps the function's logs.
   * @default RetentionDays.ONE_MONTH
   */
  readonly logRetention?: RetentionDays;
  /** The VPC subnets and security group to run in (private clusters). @default no VPC */
  readonly network?: {
    readonly vpc: IVpc;
    readonly subnets: readonly ISubnet[];
    readonly securityGroup: ISecurityGroup;
  };
  /** Reserved concurrency. @default none */
  readonly reservedConcurrency?: number;
  /**
   * The function's code.
   * @default the handler bundled with esbuild (ESM, Node.js 22, source maps)
   */
  readonly code?: Code;
}

/**
 * One of joiner's Lambda functions: Node.js 22 on arm64, the esbuild bundle of its handler with
 * source maps enabled, Powertools settings, its own log group, the timeout and memory of the
 * shared description, and the reserved concurrency it is given.
 */
export class HandlerFunction extends Construct {
  /** The Lambda function. */
  readonly function: LambdaFunction;

  constructor(scope: Construct, id: string, props: HandlerFunctionProps) {
    super(scope, id);
    const spec = FUNCTIONS[props.name];
    const logGroup = new LogGroup(this, 'Logs', { retention: props.logRetention ?? RetentionDays.ONE_MONTH });
    this.function = new LambdaFunction(this, 'Function', {
      description: `joiner ${props.name}`,
      runtime: Runtime.NODEJS_22_X,
      architecture: Architecture.ARM_64,
      handler: 'index.handler',
      code: props.code ?? Code.fromAsset(bundleHandler(props.name)),
      timeout: Duration.seconds(spec.timeoutSeconds),
      memorySize: spec.memoryMiB,
      reservedConcurrentExecutions: props.reservedConcurrency,
      ...(props.network
        ? {
            vpc: props.network.vpc,
            vpcSubnets: { subnets: [...props.network.subnets] },
            securityGroups: [props.network.securityGroup],
          }
        : {}),
      role: props.role,
      logGroup,
      environment: {
        NODE_OPTIONS: '--enable-source-maps',
        [ENV.serviceName]: `joiner-${props.name}`,
        [ENV.metricsNamespace]: METRICS_NAMESPACE,
        [ENV.logLevel]: props.logLevel ?? 'INFO',
        ...props.environment,
      },
    });
    logGroup.grantWrite(props.role);
    Validations.of(this.function).acknowledge({
      id: 'AwsSolutions-L1',
      reason:
        'joiner is built and tested for the Node.js 22 runtime (section 10 of the design); newer runtimes follow once tested.',
    });
  }
}
