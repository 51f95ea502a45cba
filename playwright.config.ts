import { existsSync } from "node:fs";
import os from "node:os";
import path from "node:path";

import { defineConfig, devices } from "@playwright/test";

const port = Number(process.env["E2E_PORT"] ?? 3100);
// localhost, like APP_URL in scripts/e2e-server.ts (which says why): the browser must use the
// same host as the links and redirects the app makes.
const baseURL = `http://localhost:${port}`;
const ci = !!process.env["CI"];
/**
 * Where scripts/e2e-server.ts writes its environment (DATABASE_URL, S3_*), one file per port, for
 * specs that seed rows or look into storage; set on process.env so the specs' workers see it too.
 */
process.env["E2E_SERVER_ENV_FILE"] ??= path.join(os.tmpdir(), `cp-e2e-server-env-${port}.json`);

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
  // One server, one database, 2 CPU cores: tests run one at a time and may build on shared data.
  workers: 1,
  fullyParallel: false,
  retries: ci ? 1 : 0,
  forbidOnly: ci,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  // The JSON report is what scripts/test.ts counts tests from.
  reporter: [["list"], ["json", { outputFile: "test-results/playwright.json" }]],
  use: {
    baseURL,
    // Every test records a trace, kept when it fails: its actions and screencast, without the DOM
    // snapshot at every action (a tenth of the tier's time in a full run). The screencast
    // stays: it keeps the headless browser painting frames, and a run without any trace once hung
    // a click for three minutes on "stable", which waits for requestAnimationFrame.
    trace: { mode: "retain-on-failure", snapshots: false, screenshots: true, sources: true },
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
  webServer: {
    // The production build on fresh services (see scripts/e2e-server.ts); the build itself is
    // made beforehand (`npm test` runs `npm run build` before this tier).
    command: "node --conditions=react-server --import tsx scripts/e2e-server.ts",
    url: `${baseURL}/sign-in`,
    env: { E2E_PORT: String(port), E2E_SERVER_ENV_FILE: process.env["E2E_SERVER_ENV_FILE"] },
    // Migrations and the seed take a while on a slow machine.
    timeout: 180_000,
    // Always a server for this run's build and a fresh database, unless asked otherwise.
    reuseExistingServer: process.env["E2E_REUSE_SERVER"] === "1",
    stdout: "pipe",
    stderr: "pipe",
    // SIGTERM lets the server stop PostgreSQL/S3 and remove its temporary directory.
    gracefulShutdown: { signal: "SIGTERM", timeout: 15_000 },
  },
});
