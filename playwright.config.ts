import { existsSync } from "node:fs";
import os from "node:os";
import path from "node:path";

import { defineConfig, devices } from "@playwright/test";

/**
 * E2E_WORKERS workers (default 1; `npm test` runs 2), each with a production server of its own on
 * fresh services: worker i talks to the server on E2E_PORT + i, with its own database and bucket,
 * so specs in two workers never see each other's rows. Playwright sets TEST_PARALLEL_INDEX (0 up
 * to workers - 1, kept by the worker that replaces one that stopped) before a worker loads this
 * file; the runner itself has none and uses the first server.
 */
const workers = Math.max(1, Math.floor(Number(process.env["E2E_WORKERS"] ?? 1)) || 1);
const firstPort = Number(process.env["E2E_PORT"] ?? 3100);
const port = firstPort + Number(process.env["TEST_PARALLEL_INDEX"] ?? 0);
// localhost, like APP_URL in scripts/e2e-server.ts (which says why): the browser must use the
// same host as the links and redirects the app makes.
const origin = (serverPort: number) => `http://localhost:${serverPort}`;
const ci = !!process.env["CI"];
/**
 * Where scripts/e2e-server.ts writes its environment (DATABASE_URL, S3_*), one file per port, for
 * specs that seed rows or look into storage; set on process.env for the specs (e2e/server-env.ts).
 */
const serverEnvFile = (serverPort: number) => path.join(os.tmpdir(), `cp-e2e-server-env-${serverPort}.json`);
process.env["E2E_SERVER_ENV_FILE"] = serverEnvFile(port);

// Debian's Chromium where installed (CI installs it, see .ci/run): Playwright's own browser
// download is not available here. The headless shell first (package chromium-headless-shell): it
// is the build Playwright itself runs headless tests in, without the full browser's window and
// display compositor, and the end-to-end tier's specs run 10-15% faster in it; then the full
// browser; elsewhere, Playwright's bundled Chromium. E2E_CHROMIUM names another executable.
const systemChromium = process.env["E2E_CHROMIUM"] ?? ["/usr/bin/chromium-headless-shell", "/usr/bin/chromium"].find((file) => existsSync(file));

export default defineConfig({
  testDir: "e2e",
  // The durable tier has its own server profile and config (playwright.durable.config.ts).
  testIgnore: [/e2e[\\/]durable[\\/]/],
  // A spec file runs in one worker, its tests in order, and may build on what its earlier tests
  // made; files are handed to whichever worker is free, so none may count on another file's rows.
  workers,
  fullyParallel: false,
  retries: ci ? 1 : 0,
  forbidOnly: ci,
  // A bound for a hung test, not a speed target: the longest stories (a request sent back and
  // accepted, the signing order, members) take 40-60 s with two workers sharing two cores.
  timeout: 120_000,
  expect: { timeout: 10_000 },
  // The JSON report is what scripts/test.ts counts tests from.
  reporter: [["list"], ["json", { outputFile: "test-results/playwright.json" }]],
  use: {
    baseURL: origin(port),
    // A test that fails is run again with a trace: its actions and screencast, without the DOM
    // snapshot at every action (a tenth of the tier's time in a full run). A trace on every first
    // run, kept only on failure, cost 14% of the tier's time (the screencast's frames, encoded by
    // the browser and written by the worker) for the few runs that fail.
    trace: { mode: "on-first-retry", snapshots: false, screenshots: true, sources: true },
    screenshot: "only-on-failure",
  },
  projects: [
    {
      name: "chromium",
      use: {
        ...devices["Desktop Chrome"],
        launchOptions: {
          ...(systemChromium ? { executablePath: systemChromium } : {}),
          // Running as root in a container, no GPU, and no network beyond the app: nothing
          // that phones home, updates itself or waits on sync.
          args: [
            "--no-sandbox",
            "--disable-gpu",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-quic",
            "--no-first-run",
            "--disable-sync",
          ],
        },
      },
    },
  ],
  // One server per worker: the production build on fresh services (see scripts/e2e-server.ts); the
  // build itself is made beforehand (`npm test` runs `npm run build` before this tier).
  webServer: Array.from({ length: workers }, (_, i) => ({
    command: "node --conditions=react-server --import tsx scripts/e2e-server.ts",
    url: `${origin(firstPort + i)}/sign-in`,
    env: { E2E_PORT: String(firstPort + i), E2E_SERVER_ENV_FILE: serverEnvFile(firstPort + i) },
    // Migrations and the seed take a while on a slow machine.
    timeout: 180_000,
    // Always a server for this run's build and a fresh database, unless asked otherwise.
    reuseExistingServer: process.env["E2E_REUSE_SERVER"] === "1",
    stdout: "pipe",
    stderr: "pipe",
    // SIGTERM lets the server stop PostgreSQL/S3 and remove its temporary directory.
    gracefulShutdown: { signal: "SIGTERM", timeout: 15_000 },
  })),
});
