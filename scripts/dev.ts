import { spawn } from "node:child_process";
import { resolve } from "node:path";
import { loadDevSecrets } from "./lib/dev-secrets";
import { startDevInngest } from "./lib/dev-inngest";
import { s3Env, startEmbeddedS3 } from "./lib/embedded";
import { startEmbeddedPostgres } from "./lib/embedded-postgres";
import { applyMigrations } from "./lib/schema-engine";

// `npm run dev`: the whole product on a machine with only Node.js. Every service that is not
// configured is started embedded, with its data under .data/ so that a restart keeps it.

const root = resolve(import.meta.dirname, "..");
const dataDir = resolve(root, ".data");
const port = Number(process.env.PORT ?? 3000);
const stops: Array<() => Promise<void>> = [];

function log(line: string): void {
  process.stdout.write(`[dev] ${line}\n`);
}

async function main(): Promise<void> {
  const env: NodeJS.ProcessEnv = { ...process.env };
  if (!env.AUTH_SECRET || !env.APP_ENCRYPTION_KEY) {
    const secrets = loadDevSecrets(resolve(dataDir, "secrets.json"));
    env.AUTH_SECRET ??= secrets.AUTH_SECRET;
    env.APP_ENCRYPTION_KEY ??= secrets.APP_ENCRYPTION_KEY;
  }
  env.APP_URL ??= `http://localhost:${port}`;
  env.NEXT_TELEMETRY_DISABLED ??= "1";
  // Webhooks to a receiver on this machine (http://localhost:...) are how one tries them out here;
  // production keeps refusing private addresses and plain http (D19).
  if (env.OUTBOUND_ALLOW_PRIVATE === undefined) {
    env.OUTBOUND_ALLOW_PRIVATE = "true";
    log("webhooks may target this machine (OUTBOUND_ALLOW_PRIVATE=true; set it to false to test the refusal)");
  }

  if (!env.DATABASE_URL) {
    const pg = await startEmbeddedPostgres({ dataDir: resolve(dataDir, "postgres"), port: Number(env.EMBEDDED_PG_PORT ?? 54329) });
    stops.push(pg.stop);
    env.DATABASE_URL = pg.url;
    log(`embedded PostgreSQL at ${pg.url}, data in .data/postgres (log .data/postgres.log)`);
  }
  if (!env.S3_ENDPOINT) {
    const s3 = await startEmbeddedS3({
      dataDir: resolve(dataDir, "s3"),
      port: Number(env.EMBEDDED_S3_PORT ?? 54330),
      bucket: env.S3_BUCKET ?? "client-portals",
    });
    stops.push(s3.stop);
    Object.assign(env, s3Env(s3));
    log(`embedded S3 at ${s3.endpoint}, data in .data/s3`);
  }
  if (!env.SMTP_URL) log(`email is captured, not sent: read it at ${env.APP_URL}/dev/mailbox`);

  const inngest = await startDevInngest({ env, dataDir, appUrl: env.APP_URL, log });
  stops.push(inngest.stop);
  Object.assign(env, inngest.env);
  log(`background jobs: ${inngest.description}`);

  const { applied } = await applyMigrations(env.DATABASE_URL);
  log(applied.length ? `applied migrations: ${applied.join(", ")}` : "database is up to date");

  // The seed uses the application's own modules, which read their configuration from process.env.
  Object.assign(process.env, env);
  const { seedDemo, DEMO } = await import("./seed");
  const seeded = await seedDemo();
  log(seeded.created ? "seeded the demo organization" : "demo organization already present");
  await startPartner(env, seeded.orgId);

  // The application server of production (server/index.ts) in Next.js's development mode: the API
  // goes through the same dispatcher as in production and every test tier.
  const next = spawn(process.execPath, ["--import", "tsx", resolve(root, "server/index.ts"), "--dev", "-p", String(port)], {
    cwd: root,
    env,
    stdio: ["inherit", "pipe", "inherit"],
  });
  let announced = false;
  next.stdout.on("data", (chunk: Buffer) => {
    process.stdout.write(chunk);
    if (!announced && /^\[server\] ready$/m.test(chunk.toString())) {
      announced = true;
      log("");
      log(`Client Portals is running at ${env.APP_URL}`);
      log(`Demo sign-in: ${DEMO.admin.email} / ${DEMO.password} (admin)`);
      log(`              ${DEMO.member.email} / ${DEMO.password} (member), ${DEMO.guest.email} / ${DEMO.password} (guest)`);
      log(`Background jobs: ${inngest.description}`);
      inngest.appReady(`http://127.0.0.1:${port}/api/inngest`).then(
        () => log("background jobs: the app's functions are synced"),
        (e: unknown) => log(`background jobs: sync failed (${e instanceof Error ? e.message : String(e)}); events wait in the database`),
      );
    }
  });
  const shutdown = async (code: number) => {
    next.kill("SIGTERM");
    for (const stop of stops.reverse()) await stop().catch(() => undefined);
    process.exit(code);
  };
  next.on("exit", (code) => void shutdown(code ?? 0));
  process.on("SIGINT", () => void shutdown(0));
  process.on("SIGTERM", () => void shutdown(0));
}

/**
 * Without a real partner (PARTNER_API_URL unset), the sandbox partner (scripts/partner-sandbox.ts)
 * runs here and the demo organization is connected to it, so a portal can be linked (customer
 * 123456) and pushes watched in its log.
 */
async function startPartner(env: NodeJS.ProcessEnv, demoOrgId: string): Promise<void> {
  if (env.PARTNER_API_URL) {
    log(`partner integration: ${env.PARTNER_API_URL} (connect it in Settings, Partner integration)`);
    return;
  }
  const { startPartnerSandbox } = await import("./partner-sandbox");
  const sandbox = await startPartnerSandbox({ port: Number(env.PARTNER_SANDBOX_PORT ?? 54331) });
  stops.push(sandbox.close);
  env.PARTNER_API_URL = sandbox.url;
  process.env.PARTNER_API_URL = sandbox.url;
  const { db } = await import("@/lib/db");
  const { systemViewer } = await import("@/lib/access/viewer");
  const { connectPartner } = await import("@/lib/partner/connection");
  const existing = await db.partnerConnection.findUnique({ where: { orgId: demoOrgId }, select: { status: true } });
  if (!existing) await connectPartner({ viewer: systemViewer(demoOrgId), apiUrl: sandbox.url, apiKey: sandbox.apiKey });
  log(`partner integration: sandbox partner at ${sandbox.url} (API key ${sandbox.apiKey}; customer 123456 is known; log at ${sandbox.url}/_sandbox/log)`);
  log(
    existing
      ? "partner integration: the demo organization's connection is kept as it was"
      : "partner integration: the demo organization is connected to the sandbox",
  );
}

main().catch(async (e: unknown) => {
  process.stderr.write(`[dev] failed to start: ${e instanceof Error ? e.message : String(e)}\n`);
  for (const stop of stops.reverse()) await stop().catch(() => undefined);
  process.exit(1);
});
