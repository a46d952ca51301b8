import { Annotations, App, type AppProps, Validations } from 'aws-cdk-lib';
import { AwsSolutionsChecks, ServerlessChecks } from 'cdk-nag';
import { acknowledgeServerlessFindings } from './constructs/serverless-findings.js';
import { type ContextError, joinerPropsFromContext } from './context.js';
import { JoinerStack, type JoinerStackProps } from './joiner-stack.js';

/** Options of {@link createJoinerApp}. */
export interface JoinerAppOptions extends AppProps {
  /** Overrides of the configuration read from context (tests, pre-built code). */
  readonly overrides?: Partial<JoinerStackProps>;
  /** Directory NodePool files are read relative to. @default the working directory */
  readonly baseDir?: string;
}

/**
 * The CDK app of `cdk deploy`: one {@link JoinerStack} configured from context, with the cdk-nag
 * AwsSolutions and Serverless checks registered so every synth fails on an unacknowledged finding. A mistake in
 * the context or the NodePool files throws a {@link ContextError} listing every problem.
 */
export function createJoinerApp(options: JoinerAppOptions = {}): { app: App; stack: JoinerStack } {
  const app = new App(options);
  const { warnings, ...fromContext } = joinerPropsFromContext(app.node, options.baseDir);
  const props = { ...fromContext, ...options.overrides };
  const stack = new JoinerStack(app, props.stackName ?? 'Joiner', props);
  for (const warning of warnings) Annotations.of(stack).addWarningV2('joiner:nodePoolFiles', warning);
  Validations.of(app).addPlugins(new AwsSolutionsChecks(app), new ServerlessChecks(app));
  acknowledgeServerlessFindings(stack);
  return { app, stack };
}
