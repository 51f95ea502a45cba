import { readdirSync, readFileSync } from "node:fs";
import { availableParallelism } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

import { defineConfig } from "vitest/config";

const root = fileURLToPath(new URL(".", import.meta.url));

// Never test files: dependencies, build output, the Playwright suite, Prisma's generated client.
const exclude = ["**/node_modules/**", "**/.next/**", "e2e/**", "lib/generated/**", ".data/**"];
/**
 * Integration tests that load a server of their own (16 clients against an app instance, two
 * instances on one database, a second PostgreSQL): the "integration-load" project.
 */
const LOAD_TESTS = ["scripts/test/contention.int.test.ts", "scripts/test/two-instances.int.test.ts", "scripts/lib/embedded.int.test.ts"];

/** The repository's files whose names end with `suffix`, relative to the root (dependencies and hidden folders left out). */
function filesEndingWith(suffix: string, dir = ""): string[] {
  return readdirSync(path.join(root, dir), { withFileTypes: true }).flatMap((entry) => {
    const relative = path.posix.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === "node_modules" || entry.name.startsWith(".") ? [] : filesEndingWith(suffix, relative);
    return entry.name.endsWith(suffix) ? [relative] : [];
  });
}

/**
 * Integration test files that replace a module or a global for themselves (vi.mock, a spy, a stubbed
 * variable, fake timers, a fresh module registry): the "integration-isolated" project, each file
 * in a process of its own. The others share their worker's process and module graph, one file
 * after another (isolate: false): importing the application's modules again for every file was
 * a quarter of the tier's CPU, and each file's first statements paid again for a cold client.
 * What one file could leave behind for the next is restored by integration-env.ts (process.env)
 * and by each file's own teardown (servers, receivers, clients it swapped in).
 */
const MODULE_SWAPS = /\bvi\.(mock|doMock|spyOn|stubEnv|stubGlobal|useFakeTimers|resetModules)\(/;
const ISOLATED_TESTS = filesEndingWith(".int.test.ts").filter((file) => MODULE_SWAPS.test(readFileSync(path.join(root, file), "utf8")));

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
          // As many files at a time as the machine has cores: vitest's default, one fewer, left
          // a 2-core machine 41% idle through this tier.
          maxWorkers: availableParallelism(),
        },
      },
      {
        extends: true,
        test: {
          name: "integration",
          environment: "node",
          include: ["**/*.int.test.ts"],
          exclude: [...exclude, ...LOAD_TESTS, ...ISOLATED_TESTS],
          globalSetup: ["scripts/test/global-setup.ts"],
          setupFiles: ["scripts/test/integration-env.ts"],
          // Two files at a time, each worker on a database and a bucket of its own (global-setup.ts),
          // so tests never race each other's rows. Two, as CI has 2 CPU cores: one file alone
          // leaves a third of them idle while it waits on PostgreSQL, S3 and timers.
          fileParallelism: true,
          maxWorkers: 2,
          isolate: false,
          // Real servers and migrations on a slow machine.
          testTimeout: 60_000,
          hookTimeout: 60_000,
        },
      },
      {
        extends: true,
        test: {
          // The integration tests that swap a module or a global (ISOLATED_TESTS): each file in a
          // fresh process, on the same databases, after the others.
          name: "integration-isolated",
          environment: "node",
          include: ISOLATED_TESTS,
          exclude: [...exclude, ...LOAD_TESTS],
          globalSetup: ["scripts/test/global-setup.ts"],
          setupFiles: ["scripts/test/integration-env.ts"],
          fileParallelism: true,
          maxWorkers: 2,
          sequence: { groupOrder: 1 },
          testTimeout: 60_000,
          hookTimeout: 60_000,
        },
      },
      {
        extends: true,
        test: {
          // The integration tests that put a server under load and assert on how it holds (no 5xx,
          // no lost work): alone on the machine, one file at a time, after the others.
          name: "integration-load",
          environment: "node",
          include: LOAD_TESTS,
          exclude,
          globalSetup: ["scripts/test/global-setup.ts"],
          setupFiles: ["scripts/test/integration-env.ts"],
          fileParallelism: false,
          maxWorkers: 1,
          sequence: { groupOrder: 2 },
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
