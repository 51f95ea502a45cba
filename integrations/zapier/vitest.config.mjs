import { defineConfig } from 'vitest/config';

// The app's tests drive its real operations (createAppTester) against the Client Portals
// production build on loopback: one server for the whole run (test/global-setup.mjs), files one
// after another (they share the server and its demo organization).
export default defineConfig({
  test: {
    include: ['test/**/*.test.mjs'],
    globalSetup: ['test/global-setup.mjs'],
    setupFiles: ['test/setup-env.mjs'],
    fileParallelism: false,
    maxWorkers: 1,
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
