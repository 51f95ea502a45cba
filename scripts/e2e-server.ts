/**
 * The server the end-to-end tests run against (Playwright's webServer, see playwright.config.ts):
 * the production build (the application server as `npm start` runs it, built beforehand by
 * `npm run build`) on fresh services:
 *
 * - a database with all migrations and the demo seed: DATABASE_URL's server with its own
 *   database `client_portals_e2e_<random>` (an embedded PostgreSQL server's without DATABASE_URL);
 * - an embedded S3 bucket;
 * - both in a temporary directory that is removed on SIGTERM/SIGINT;
 * - the local Inngest executor (scripts/test/inngest-executor.ts) in dev mode, which syncs the app;
 *   with E2E_PROFILE=durable (the durable tier, playwright.durable.config.ts) in cloud mode, signed,
 *   with an SMTP sink and a control API for the specs (scripts/test/durable-services.ts).
 *
 * Usage: node --import tsx scripts/e2e-server.ts   (port: E2E_PORT, default 3100)
 *
 * With E2E_SERVER_ENV_FILE set, the server's environment (DATABASE_URL, S3_*, AUTH_SECRET, ...,
 * APP_URL) is written there as JSON before `next start`, for a test process that needs the same
 * database (the fuzz tier counts rows with it).
 */
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

import { startDurableServices } from "./test/durable-services.ts";
import { startTestServices, type TestServices } from "./test/services.ts";
import { COMPILED_SERVER, productionServerArgs } from "./lib/production-server.ts";

const root = fileURLToPath(new URL("..", import.meta.url));
const port = Number(process.env["E2E_PORT"] ?? 3100);
// "localhost", not 127.0.0.1: Next.js rewrites loopback IPs in request URLs to "localhost" (NextURL),
// so Auth.js builds its URLs and redirects on localhost whatever the browser used; with
// 127.0.0.1 the session cookie and the redirect target would be on different hosts.
// The server still listens on 127.0.0.1 only.
const appUrl = `http://localhost:${port}`;

let services: TestServices | undefined;
let durable: Awaited<ReturnType<typeof startDurableServices>> | undefined;
const profile = process.env["E2E_PROFILE"] ?? "default";
let next: ChildProcess | undefined;
let shuttingDown = false;

function log(line: string): void {
  process.stdout.write(`[e2e-server] ${line}\n`);
}

async function main(): Promise<void> {
  if (!existsSync(path.join(root, ".next", "BUILD_ID")) || !existsSync(COMPILED_SERVER)) {
    throw new Error("no production build in .next and dist/: run `npm run build` first (npm test does)");
  }

  services = await startTestServices({ databaseName: profile === "durable" ? "client_portals_e2e_durable" : "client_portals_e2e", tmpPrefix: "cp-e2e-" });
  log(`${services.description}; S3 at ${services.env["S3_ENDPOINT"]}`);
  durable = await startDurableServices(log, profile === "durable" ? "durable" : "default");

  const env: NodeJS.ProcessEnv = {
    ...process.env,
    ...services.env,
    APP_URL: appUrl,
    // Tests read sign-in links and notifications from the captured mail at /dev/mailbox.
    DEV_MAILBOX: "true",
    NEXT_TELEMETRY_DISABLED: "1",
    ...durable?.env,
  };
  // Signing needs the organization's certificate in a production build: a self-signed one per run.
  if (!env["PDF_SIGNING_P12"]) {
    const { createSelfSignedP12 } = await import("../lib/signing/certificate.ts");
    env["PDF_SIGNING_P12_PASSWORD"] = "e2e-signing";
    env["PDF_SIGNING_P12"] = `base64:${createSelfSignedP12({ commonName: "Demo Accounting LLP (e2e)", password: "e2e-signing" }).toString("base64")}`;
  }
  // DATABASE_URL named the server; from here on it is the e2e database, for the seed too.
  Object.assign(process.env, env);

  // The seed goes through the app's own modules (lib/db, lib/storage), which read process.env.
  const seed = (await import("./seed.ts")) as { seedDemo?: () => Promise<unknown> };
  if (typeof seed.seedDemo === "function") {
    await seed.seedDemo();
    log("seeded the demo organization");
  } else {
    log("scripts/seed.ts has no seedDemo(): starting without demo data");
  }
  // Give the seed's connections back before the server opens its own.
  const { getDb } = await import("../lib/db.ts");
  await getDb().$disconnect();

  const envFile = process.env["E2E_SERVER_ENV_FILE"];
  // INNGEST_BASE_URL: the local executor, whose GET /_executor/state tells a test when background work is idle.
  const executorUrl = durable?.env["INNGEST_BASE_URL"];
  if (envFile)
    writeFileSync(envFile, JSON.stringify({ ...services.env, APP_URL: appUrl, ...(executorUrl ? { INNGEST_BASE_URL: executorUrl } : {}) }), { mode: 0o600 });

  next = spawn(process.execPath, productionServerArgs(port), {
    cwd: root,
    env,
    stdio: "inherit",
  });
  next.on("exit", (code, signal) => {
    if (shuttingDown) return;
    log(`next start exited (${signal ?? code}) on its own`);
    void shutdown(code === 0 ? 1 : (code ?? 1));
  });
  log(`starting the production build at ${appUrl}`);
  // The executor syncs the app as soon as its serve endpoint answers (as `inngest-cli dev -u` does).
  durable?.sync(`http://127.0.0.1:${port}/api/inngest`).catch((e: unknown) => {
    log(`Inngest sync failed: ${String(e)}`);
    void shutdown(1);
  });
}

async function shutdown(code: number): Promise<void> {
  if (shuttingDown) return;
  shuttingDown = true;
  const child = next;
  if (child && child.exitCode === null && child.signalCode === null) {
    const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
    child.kill("SIGTERM");
    // next start normally exits at once; don't let a stuck one keep the services (and CI) alive.
    const timer = setTimeout(() => child.kill("SIGKILL"), 5_000);
    await exited;
    clearTimeout(timer);
  }
  await durable?.stop().catch((e: unknown) => log(`stopping the durable services: ${String(e)}`));
  await services?.stop().catch((e: unknown) => log(`stopping services: ${String(e)}`));
  process.exit(code);
}

process.on("SIGTERM", () => void shutdown(0));
process.on("SIGINT", () => void shutdown(0));

main().catch(async (e: unknown) => {
  process.stderr.write(`[e2e-server] failed to start: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
  await shutdown(1);
});
