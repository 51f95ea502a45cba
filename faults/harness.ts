/**
 * The services of the fault tier (npm run test:faults), each one a real process or server the
 * tests can stop and start again:
 *
 *   PostgreSQL   the embedded server (scripts/lib/embedded-postgres.ts), a cluster of its own in
 *                a temporary directory, on FAULTS_PG_PORT (default 5810)
 *   S3           the embedded s3rver on FAULTS_S3_PORT (default 3830), restartable on its data
 *   executor     the local Inngest executor (scripts/test/inngest-executor.ts) in cloud mode, on
 *                FAULTS_INNGEST_PORT (default 3820)
 *   server       the production build (`next start`, built first when .next has none) on
 *                FAULTS_PORT (default 3800)
 */
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { appendFileSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

import pg from "pg";

import { s3Env, startEmbeddedS3, type EmbeddedS3 } from "../scripts/lib/embedded.ts";
import { allowServerInto, PostgresServer } from "../scripts/lib/embedded-postgres.ts";
import { applyMigrations } from "../scripts/lib/schema-engine.ts";
import { InngestExecutor } from "../scripts/test/inngest-executor.ts";
import { COMPILED_SERVER, productionServerArgs } from "../scripts/lib/production-server.ts";

const root = fileURLToPath(new URL("..", import.meta.url));
const port = (name: string, fallback: number) => Number(process.env[name] ?? fallback);
const PORTS = {
  server: port("FAULTS_PORT", 3800),
  postgres: port("FAULTS_PG_PORT", 5810),
  executor: port("FAULTS_INNGEST_PORT", 3820),
  s3: port("FAULTS_S3_PORT", 3830),
};

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A PostgreSQL cluster of the tests' own: stop/start/restart really stop and start the server process. */
class FaultPostgres {
  private constructor(
    private readonly dir: string,
    private readonly server: PostgresServer,
  ) {}

  get url(): string {
    return this.server.url("faults");
  }

  static async create(port: number): Promise<FaultPostgres> {
    const dir = mkdtempSync(path.join(tmpdir(), "cp-faults-pg-"));
    allowServerInto(dir);
    // Durable, as deployed: the tier stops PostgreSQL immediately (a crash), and an answered commit
    // must survive it, which it need not with fsync or synchronous commit off.
    const server = await PostgresServer.create({ dataDir: path.join(dir, "data"), port, durable: true });
    const admin = new pg.Client({ connectionString: server.url() });
    await admin.connect();
    await admin.query("CREATE DATABASE faults");
    await admin.end();
    return new FaultPostgres(dir, server);
  }

  start(): Promise<void> {
    return this.server.start();
  }

  /** `fast`: sessions are ended and the server shuts down cleanly; `immediate`: as after a crash. */
  stop(mode: "fast" | "immediate" = "fast"): Promise<void> {
    return this.server.stop(mode);
  }

  async destroy(): Promise<void> {
    await this.server.stop("immediate");
    rmSync(this.dir, { recursive: true, force: true });
  }
}

/** The embedded S3 on a fixed port over a data directory that outlives a stop. */
class FaultS3 {
  private server: EmbeddedS3 | undefined;
  private constructor(private readonly dir: string) {}

  static async create(): Promise<FaultS3> {
    const s3 = new FaultS3(mkdtempSync(path.join(tmpdir(), "cp-faults-s3-")));
    await s3.start();
    return s3;
  }

  async start(): Promise<void> {
    this.server = await startEmbeddedS3({ dataDir: this.dir, port: PORTS.s3, bucket: "client-portals-faults" });
  }

  async stop(): Promise<void> {
    await this.server?.stop();
    this.server = undefined;
  }

  env(): Record<string, string> {
    if (!this.server) throw new Error("S3 is stopped");
    return s3Env(this.server);
  }

  async destroy(): Promise<void> {
    await this.stop();
    rmSync(this.dir, { recursive: true, force: true });
  }
}

export interface Services {
  postgres: FaultPostgres;
  s3: FaultS3;
  executor: InngestExecutor;
  server: ChildProcess;
  baseUrl: string;
  /** The server's environment (for the test process's own database and token fixtures). */
  env: Record<string, string>;
  /** Everything the server printed. */
  output: () => string;
  stop(): Promise<void>;
}

function ensureBuild(): void {
  if (existsSync(path.join(root, ".next", "BUILD_ID")) && existsSync(COMPILED_SERVER)) return;
  process.stdout.write("[faults] no production build in .next and dist/: running npm run build\n");
  execFileSync("npm", ["run", "--silent", "build"], {
    cwd: root,
    stdio: "inherit",
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1" },
  });
}

export async function startServices(): Promise<Services> {
  ensureBuild();
  const stops: Array<() => Promise<void>> = [];
  const stop = async () => {
    for (const s of stops.reverse()) await s().catch((e: unknown) => process.stderr.write(`[faults] stopping: ${String(e)}\n`));
    stops.length = 0;
  };
  try {
    const postgres = await FaultPostgres.create(PORTS.postgres);
    stops.push(() => postgres.destroy());
    await applyMigrations(postgres.url);
    const s3 = await FaultS3.create();
    stops.push(() => s3.destroy());

    const signingKey = `signkey-test-${randomBytes(32).toString("hex")}`;
    const eventKey = randomBytes(16).toString("hex");
    const executor = new InngestExecutor({ port: PORTS.executor, signingKey, eventKey, timeScale: 0.001, log: () => undefined });
    await executor.listen();
    stops.push(() => executor.close());

    const baseUrl = `http://localhost:${PORTS.server}`;
    const env: Record<string, string> = {
      DATABASE_URL: postgres.url,
      ...s3.env(),
      // Storage that is down answers 503 after this long, not after the default 30 s.
      S3_TIMEOUT_MS: "4000",
      AUTH_SECRET: randomBytes(32).toString("base64url"),
      APP_ENCRYPTION_KEY: randomBytes(32).toString("hex"),
      APP_URL: baseUrl,
      INNGEST_DEV: "0",
      INNGEST_BASE_URL: executor.url,
      INNGEST_EVENT_KEY: eventKey,
      INNGEST_SIGNING_KEY: signingKey,
      OUTBOUND_ALLOW_PRIVATE: "true",
      NEXT_TELEMETRY_DISABLED: "1",
    };
    let output = "";
    // The server's log, kept for a failure's diagnosis.
    const logFile = path.join(root, "test-results", "faults-server.log");
    mkdirSync(path.dirname(logFile), { recursive: true });
    writeFileSync(logFile, "");
    const keep = (c: Buffer) => {
      output += c.toString("utf8");
      appendFileSync(logFile, c);
    };
    const server = spawn(process.execPath, productionServerArgs(PORTS.server), {
      cwd: root,
      env: { ...process.env, ...env, NODE_ENV: "production" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    server.stdout?.on("data", keep);
    server.stderr?.on("data", keep);
    stops.push(async () => {
      if (server.exitCode !== null || server.signalCode !== null) return;
      const exited = new Promise((r) => server.once("exit", r));
      server.kill("SIGTERM");
      const timer = setTimeout(() => server.kill("SIGKILL"), 10_000);
      await exited;
      clearTimeout(timer);
    });
    const deadline = Date.now() + 90_000;
    for (;;) {
      if (server.exitCode !== null) throw new Error(`next start exited (${server.exitCode}):\n${output}`);
      const up = await fetch(`${baseUrl}/healthz`).then(
        (r) => r.ok,
        () => false,
      );
      if (up) break;
      if (Date.now() > deadline) throw new Error(`next start did not answer /healthz within 90 s:\n${output}`);
      await sleep(300);
    }
    await executor.syncWhenUp(`http://127.0.0.1:${PORTS.server}/api/inngest`, 60_000);
    return { postgres, s3, executor, server, baseUrl, env, output: () => output, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** How one request ended. `hung`: no answer within the limit (the request was aborted). */
export type Outcome = { status: number; retryAfter: string | null; body: string; ms: number } | { status: "hung" | "network"; error: string; ms: number };

/** One request with a hard limit, never throwing: what happened is in the outcome. */
export async function attempt(url: string, init: RequestInit, limitMs = 30_000): Promise<Outcome> {
  const started = Date.now();
  try {
    const res = await fetch(url, { ...init, signal: AbortSignal.timeout(limitMs) });
    const body = await res.text();
    return { status: res.status, retryAfter: res.headers.get("retry-after"), body, ms: Date.now() - started };
  } catch (e) {
    const error = e instanceof Error ? `${e.name}: ${e.message}` : String(e);
    return { status: e instanceof Error && e.name === "TimeoutError" ? "hung" : "network", error, ms: Date.now() - started };
  }
}

/** Polls `check` until it returns something other than undefined, or fails naming `what`. */
export async function until<T>(what: string, check: () => Promise<T | undefined> | T | undefined, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = await check();
    if (found !== undefined) return found;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs / 1000} s waiting for ${what}`);
    await sleep(250);
  }
}

export { sleep };
