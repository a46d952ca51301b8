import { App, type AppProps, Validations } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import { joinerPropsFromContext } from './context.js';
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
 * AwsSolutions checks registered so every synth fails on an unacknowledged finding.
 */
export function createJoinerApp(options: JoinerAppOptions = {}): { app: App; stack: JoinerStack } {
  const app = new App(options);
  const props = { ...joinerPropsFromContext(app.node, options.baseDir), ...options.overrides };
  const stack = new JoinerStack(app, props.stackName ?? 'Joiner', props);
  Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
  return { app, stack };
}
