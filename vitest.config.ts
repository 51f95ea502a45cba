import { fileURLToPath } from "node:url";

import { defineConfig } from "vitest/config";

const root = fileURLToPath(new URL(".", import.meta.url));

// Never test files: dependencies, build output, the Playwright suite, Prisma's generated client.
const exclude = ["**/node_modules/**", "**/.next/**", "e2e/**", "lib/generated/**", ".data/**"];

export default defineConfig({
  resolve: {
    // tsconfig's "@/*": ["./*"]. A regex so that scoped packages (@prisma/..., @aws-sdk/...) are
    // left alone.
    alias: [
      { find: /^@\//, replacement: `${root}/` },
      // Tests run on the server by definition: `import "server-only"` resolves as under react-server.
      { find: /^server-only$/, replacement: `${root}/node_modules/server-only/empty.js` },
    ],
  },
  test: {
    projects: [
      {
        extends: true,
        test: {
          name: "unit",
          environment: "node",
          include: ["**/*.test.ts", "**/*.test.tsx"],
          exclude: [...exclude, "**/*.int.test.ts", "**/*.int.test.tsx", "packages/client/test/**"],
          // Some unit tests run ESLint, tsc or a cold import of a whole module graph: seconds each
          // on a busy 2-core machine. No unit test asserts on time.
          testTimeout: 60_000,
        },
      },
      {
        extends: true,
        test: {
          name: "integration",
          environment: "node",
          include: ["**/*.int.test.ts"],
          exclude,
          globalSetup: ["scripts/test/global-setup.ts"],
          setupFiles: ["scripts/test/integration-env.ts"],
          // One database and one bucket for the whole run, and 2 CPU cores in CI: files run one
          // after another, so tests never race each other's rows or starve the embedded servers.
          fileParallelism: false,
          maxWorkers: 1,
          // Real servers and migrations on a slow machine.
          testTimeout: 60_000,
          hookTimeout: 60_000,
        },
      },
      {
        extends: true,
        test: {
          // npm test -- fuzz: property-based requests against the production build, and its
          // shutdown (fuzz/).
          name: "fuzz",
          environment: "node",
          // and the web half of the cross-organization sweep (test/cross-org/).
          include: ["fuzz/**/*.fuzz.ts", "fuzz/**/*.server.ts", "test/cross-org/*.server.ts"],
          globalSetup: ["fuzz/global-setup.ts"],
          setupFiles: ["fuzz/env.ts"],
          fileParallelism: false,
          maxWorkers: 1,
          testTimeout: 120_000,
          hookTimeout: 240_000,
        },
      },
      {
        extends: true,
        test: {
          // npm test -- client: the typed client (packages/client) against the production build.
          name: "client",
          environment: "node",
          include: ["packages/client/test/**/*.test.ts"],
          globalSetup: ["packages/client/test/global-setup.ts"],
          setupFiles: ["packages/client/test/env.ts"],
          fileParallelism: false,
          maxWorkers: 1,
          testTimeout: 60_000,
          hookTimeout: 240_000,
        },
      },
      {
        extends: true,
        test: {
          // npm run test:faults: the production build on services of its own that the tests stop
          // and start (faults/harness.ts). Not part of `npm test`; .ci/run runs it after.
          name: "faults",
          environment: "node",
          include: ["faults/**/*.fault.ts"],
          fileParallelism: false,
          maxWorkers: 1,
          testTimeout: 240_000,
          hookTimeout: 600_000,
        },
      },
    ],
  },
});
