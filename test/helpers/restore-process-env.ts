/**
 * vitest setup file, run before each test file (even where files share a worker): whatever
 * environment variables the file sets or deletes, at import or in its tests (the AWS credentials
 * of its simulated cloud, options of a child process), are put back once the file ends, so the
 * next file run in the same worker (files share workers, see vitest.config.ts) starts with the
 * environment the one before it started with. `process.exitCode` is reset likewise.
 */
import { afterAll } from 'vitest';

const saved: Record<string, string | undefined> = { ...process.env };

afterAll(() => {
  for (const name of Object.keys(process.env)) if (!(name in saved)) delete process.env[name];
  for (const [name, value] of Object.entries(saved))
    if (value !== undefined && process.env[name] !== value) process.env[name] = value;
  process.exitCode = undefined;
});
