import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createJoinerApp } from '../../../../lib/app.js';
import { stubCode } from '../../../infra/stack-fixture.js';

export const ACCOUNT = '111111111111';
export const REGION = 'us-west-2';

/**
 * Synthesizes the joiner stack (handler code stubbed) into a fresh `cdk synth -o` directory, with
 * `extra` cdk.json context besides the cluster, account and region.
 */
export function synthesizeStack(extra: Record<string, unknown> = {}): string {
  const outdir = mkdtempSync(join(tmpdir(), 'joiner-iam-'));
  const context = {
    'joiner:clusterName': 'prod',
    'joiner:account': ACCOUNT,
    'joiner:region': REGION,
    ...extra,
  };
  const { app } = createJoinerApp({ context, outdir, overrides: { code: stubCode } });
  app.synth();
  return outdir;
}
