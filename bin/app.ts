/**
 * The CDK app (`cdk.json`): `npx cdk synth` / `npx cdk deploy` with the cluster named in context.
 * A mistake in the configuration prints one line per problem, without a stack trace, and exits 1.
 */
import { createJoinerApp } from '../lib/app.js';
import { ContextError } from '../lib/context.js';

try {
  createJoinerApp().app.synth();
} catch (error) {
  if (!(error instanceof ContextError)) throw error;
  process.stderr.write(`${error.message}\n`);
  process.exitCode = 1;
}
