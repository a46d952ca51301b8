import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createJoinerApp } from '../../../../lib/app.js';
import { stubCode } from '../../../infra/stack-fixture.js';

export const ACCOUNT = '111111111111';
export const REGION = 'us-west-2';

/**
 * `cdk synth -o` directories already synthesized in this process, by their extra context. Files
 * share their worker's loaded modules (vitest.config.ts), so a file run after another that
 * synthesized the same context reads its directory instead of synthesizing again: the synth is
 * deterministic for the same context, and the tests only read the directory (or add files of
 * their own beside the manifest, which finds the template).
 */
const synthesized = new Map<string, string>();

/**
 * Synthesizes the joiner stack (handler code stubbed) into a `cdk synth -o` directory, with
 * `extra` cdk.json context besides the cluster, account and region; once per context in a process.
 */
export function synthesizeStack(extra: Record<string, unknown> = {}): string {
  const key = JSON.stringify(extra);
  const done = synthesized.get(key);
  if (done) return done;
  const outdir = mkdtempSync(join(tmpdir(), 'joiner-iam-'));
  const context = {
    'joiner:clusterName': 'prod',
    'joiner:account': ACCOUNT,
    'joiner:region': REGION,
    ...extra,
  };
  const { app } = createJoinerApp({ context, outdir, overrides: { code: stubCode } });
  app.synth();
  synthesized.set(key, outdir);
  return outdir;
}
