import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    environment: 'node',
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // Builds dist/cli, so tests that start bin/joiner.js run the current sources.
    globalSetup: ['scripts/build-cli.mjs'],
    // Node 20 is supported (see README); the SDK's notice about its own future releases is noise here.
    env: { AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true' },
  },
});
