/**
 * The services a test run needs, fresh every time: a database with all migrations applied and an
 * S3 bucket. Shared by the integration tier's global setup and the end-to-end server.
 *
 * Without DATABASE_URL (a newcomer, CI) the run starts a PostgreSQL server of its own
 * (scripts/lib/embedded-postgres.ts) in a temporary directory on a free port, stopped and removed
 * when the run ends. With DATABASE_URL set only its server and credentials are used. Either way
 * the run gets its own database on that server, dropped and recreated, so it never touches the
 * database the URL names. S3 is always the embedded one: there is no shared S3 to point tests at.
 */
import { randomBytes } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";

import pg from "pg";

import { s3Env, startEmbeddedS3 } from "../lib/embedded.ts";
import { allowServerInto, startEmbeddedPostgres } from "../lib/embedded-postgres.ts";
import { applyMigrations, quoteIdentifier } from "../lib/schema-engine.ts";

export interface TestServices {
  /**
   * Variables for the code under test: DATABASE_URL, S3_*, AUTH_SECRET, APP_ENCRYPTION_KEY, and
   * TEST_DATABASE ("embedded": the run's own server; "postgres": DATABASE_URL's server).
   */
  env: Record<string, string>;
  /**
   * With `copies`: one set of variables per copy, each naming a database and a bucket of its own
   * (the first is `env`), so that test workers side by side never see each other's rows or objects.
   */
  copies: Array<Record<string, string>>;
  /** How the database was provided, for log lines. */
  description: string;
  stop(): Promise<void>;
}

export async function startTestServices(options: {
  /** Database to (re)create on DATABASE_URL's server, e.g. `client_portals_test`. */
  databaseName: string;
  /** Prefix of the temporary directory holding the embedded servers' data. */
  tmpPrefix: string;
  /** The embedded server with fsync and synchronous commit on, as deployed (benchmarks). */
  durableDatabase?: boolean;
  /** How many independent databases and buckets (default 1); the others are copies of the first, migrated. */
  copies?: number;
}): Promise<TestServices> {
  const dir = await mkdtemp(path.join(tmpdir(), options.tmpPrefix));
  const stops: Array<() => Promise<void>> = [];
  const stop = async (): Promise<void> => {
    for (const s of stops.reverse()) await s().catch(() => undefined);
    stops.length = 0;
    await rm(dir, { recursive: true, force: true });
  };

  try {
    let serverUrl = process.env["DATABASE_URL"];
    let kind: "postgres" | "embedded" = "postgres";
    if (!serverUrl) {
      allowServerInto(dir);
      const embedded = await startEmbeddedPostgres({ dataDir: path.join(dir, "postgres"), port: 0, durable: options.durableDatabase ?? false });
      stops.push(embedded.stop);
      serverUrl = embedded.url;
      kind = "embedded";
    }
    // A name of its own per run, so that runs side by side (developers, CI) never drop each
    // other's database; dropped again when the run ends.
    const name = `${options.databaseName}_${randomBytes(4).toString("hex")}`;
    const databaseUrl = await recreateDatabase(serverUrl, name);
    const admin = serverUrl;
    stops.push(() => dropDatabase(admin, name));
    const description =
      kind === "embedded"
        ? `embedded PostgreSQL at ${new URL(serverUrl).host}, database ${name}`
        : `PostgreSQL database ${name} on ${new URL(serverUrl).host}, fresh`;
    await applyMigrations(databaseUrl);
    // The copies: CREATE DATABASE ... TEMPLATE copies the migrated database file by file, far
    // quicker than migrating each.
    const databaseUrls = [databaseUrl];
    for (let i = 2; i <= (options.copies ?? 1); i++) {
      const copy = `${name}_${i}`;
      databaseUrls.push(await recreateDatabase(serverUrl, copy, name));
      stops.push(() => dropDatabase(admin, copy));
    }

    const buckets = databaseUrls.map((_, i) => (i === 0 ? "client-portals-test" : `client-portals-test-${i + 1}`));
    const s3 = await startEmbeddedS3({ dataDir: path.join(dir, "s3"), port: 0, buckets });
    stops.push(s3.stop);

    const secrets = {
      // Fresh per run: nothing a test run signs or encrypts outlives it.
      AUTH_SECRET: process.env["AUTH_SECRET"] ?? randomBytes(32).toString("base64url"),
      APP_ENCRYPTION_KEY: process.env["APP_ENCRYPTION_KEY"] ?? randomBytes(32).toString("hex"),
    };
    const copies = databaseUrls.map((url, i) => ({ DATABASE_URL: url, TEST_DATABASE: kind, ...s3Env(s3), S3_BUCKET: buckets[i]!, ...secrets }));
    return { env: copies[0]!, copies, description, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

/**
 * Drops and recreates `name` on the server of `serverUrl`, returning a URL for it with the same
 * credentials and options. Connects through the server's `postgres` database, which always
 * exists, so the URL may name any database (even `name` itself).
 */
/** Runs `work` on the server's `postgres` database, which always exists. */
async function withAdminClient<T>(serverUrl: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const admin = new URL(serverUrl);
  admin.pathname = "/postgres";
  const client = new pg.Client({ connectionString: admin.toString() });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

async function dropDatabase(serverUrl: string, name: string): Promise<void> {
  await withAdminClient(serverUrl, (client) => client.query(`DROP DATABASE IF EXISTS ${quoteIdentifier(name)} WITH (FORCE)`));
}

async function recreateDatabase(serverUrl: string, name: string, template?: string): Promise<string> {
  // FORCE ends sessions a crashed earlier run may have left behind (PostgreSQL 13+).
  await dropDatabase(serverUrl, name);
  const from = template ? ` TEMPLATE ${quoteIdentifier(template)}` : "";
  await withAdminClient(serverUrl, (client) => client.query(`CREATE DATABASE ${quoteIdentifier(name)}${from}`));
  const url = new URL(serverUrl);
  url.pathname = `/${encodeURIComponent(name)}`;
  return url.toString();
}
