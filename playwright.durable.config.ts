import { defineConfig } from "@playwright/test";

import base from "./playwright.config";

// The durable tier: the same production build, on a server whose Inngest client talks to the
// local executor (scripts/test/inngest-executor.ts) in cloud mode and whose SMTP_URL is a
// loopback sink, so webhook deliveries, emails and reminders run end to end through
// /api/inngest (scripts/e2e-server.ts, E2E_PROFILE=durable). `npm test -- durable` runs it.
const webServer = Array.isArray(base.webServer) ? base.webServer[0]! : base.webServer!;

export default defineConfig({
  ...base,
  testDir: "e2e/durable",
  testIgnore: [],
  // One server, with the executor and SMTP sink its specs drive through a control API.
  workers: 1,
  // The budget for these specs together; each waits on real runs, not on fixed sleeps.
  timeout: 60_000,
  reporter: [["list"], ["json", { outputFile: "test-results/playwright-durable.json" }]],
  webServer: { ...webServer, env: { ...webServer.env, E2E_PROFILE: "durable" } },
});
