#!/usr/bin/env node
// The `joiner` command: runs the compiled CLI (dist/cli, built from bin/joiner.ts by
// `npm ci` through the `prepare` script, or by `npm run build:cli`).
try {
  await import('../dist/cli/joiner.js');
} catch (error) {
  if (error?.code !== 'ERR_MODULE_NOT_FOUND' || !String(error.message).includes('dist/cli/joiner.js')) {
    throw error;
  }
  process.stderr.write(
    'joiner: the compiled CLI (dist/cli) is missing: run `npm run build:cli` (npm ci runs it)\n',
  );
  process.exitCode = 1;
}
