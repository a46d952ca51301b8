/**
 * joiner's command line: `joiner <command> --help` describes each command.
 * Supported Node.js versions: 20 and 22 (the deployed functions run on Lambda's nodejs22.x).
 */
import { createProgram } from './program.js';

// joiner states its own supported Node.js versions; the AWS SDK's notice about its future
// releases is not something a joiner user can act on.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

try {
  await createProgram().parseAsync(process.argv);
} catch (error) {
  // Commands report the errors users can meet themselves; anything reaching here is printed as
  // one line (the stack only on request), never as a crash dump.
  const message = error instanceof Error ? error.message : String(error);
  process.stderr.write(`joiner: ${message}\n`);
  if (process.env.JOINER_DEBUG && error instanceof Error && error.stack)
    process.stderr.write(`${error.stack}\n`);
  else process.stderr.write('joiner: set JOINER_DEBUG=1 to print the stack trace\n');
  process.exitCode = 1;
}
