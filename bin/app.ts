/**
 * The CDK app (`cdk.json`): `npx cdk synth` / `npx cdk deploy` with the cluster named in context.
 */
import { createJoinerApp } from '../lib/app.js';

createJoinerApp().app.synth();
