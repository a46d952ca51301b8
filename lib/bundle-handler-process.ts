/**
 * `bundle-handler-process <function> <outdir>`: bundles one handler into `outdir`. The synchronous
 * `bundleHandler` (constructs need their asset at once) runs it as a child process, because the
 * build uses an esbuild plugin, which only the asynchronous API runs.
 */
import { FUNCTIONS, type FunctionName } from '../functions/shared/event-sources.js';
import { buildHandler } from './handler-bundle.js';

const [name, outdir] = process.argv.slice(2);
if (!(name in FUNCTIONS) || !outdir) {
  process.stderr.write(`usage: bundle-handler-process <${Object.keys(FUNCTIONS).join('|')}> <outdir>\n`);
  process.exit(2);
}
try {
  await buildHandler(name as FunctionName, outdir);
} catch (error) {
  process.stderr.write(`${(error as Error).message}\n`);
  process.exit(1);
}
