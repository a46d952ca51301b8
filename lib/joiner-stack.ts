import { Stack, type StackProps } from 'aws-cdk-lib';
import type { Construct } from 'constructs';
import { StackOutputs } from './constructs/stack-outputs.js';
import { Joiner, type JoinerProps } from './joiner.js';

/** Properties of {@link JoinerStack}: stack settings plus joiner's configuration. */
export interface JoinerStackProps extends StackProps, JoinerProps {}

/** The stack `cdk deploy` creates: the {@link Joiner} construct and its {@link StackOutputs}. */
export class JoinerStack extends Stack {
  readonly joiner: Joiner;

  constructor(scope: Construct, id: string, props: JoinerStackProps) {
    super(scope, id, props);
    this.joiner = new Joiner(this, 'Joiner', props);
    new StackOutputs(this, 'Outputs', { joiner: this.joiner });
  }
}
