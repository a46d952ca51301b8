import { Stack, type StackProps } from 'aws-cdk-lib';
import type { Construct } from 'constructs';
import { Joiner, type JoinerProps } from './joiner.js';

/** Properties of {@link JoinerStack}: stack settings plus joiner's configuration. */
export interface JoinerStackProps extends StackProps, JoinerProps {}

/** The stack `cdk deploy` creates: only the {@link Joiner} construct. */
export class JoinerStack extends Stack {
  readonly joiner: Joiner;

  constructor(scope: Construct, id: string, props: JoinerStackProps) {
    super(scope, id, props);
    this.joiner = new Joiner(this, 'Joiner', props);
  }
}
