/**
 * joiner's command line: `joiner <command> --help` describes each command.
 */
import { createProgram } from './program.js';

await createProgram().parseAsync(process.argv);
