import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { setPriority } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

import { startDurableServices } from "../test/durable-services.ts";
import { startBenchServices } from "./services.ts";
import { COMPILED_SERVER, productionServerArgs } from "../lib/production-server.ts";

// The benchmark build (`BENCH_BUILD=1 npm run build` beforehand: the production build plus the
// framework-floor route, app/api/bench-floor/route.bench.ts) started for the API benchmarks, on fresh
// services, a local Inngest executor, as the end-to-end server has. Ports: BENCH_PORT (default 3700).
// BENCH_CPU_PROF=DIR writes a V8 CPU profile of the server there when it stops
// (read it with `node scripts/bench/anchors/cpuprofile-areas.mjs FILE`).

export const root = fileURLToPath(new URL("../..", import.meta.url));
export const benchPort = (offset = 0) => Number(process.env["BENCH_PORT"] ?? 3700) + offset;

export interface RunningProcess {
  child: ChildProcess;
  /** CPU time (user + system) the process has used so far, in ms (from /proc). */
  cpuMs(): number;
  stop(): Promise<void>;
}

/** A process's name and the fields of /proc/PID/stat after it (field 3, the state, first). */
function procStat(pid: number | string): { name: string; fields: string[] } {
  const text = readFileSync(`/proc/${pid}/stat`, "utf8");
  const end = text.lastIndexOf(") ");
  return { name: text.slice(text.indexOf("(") + 1, end), fields: text.slice(end + 2).split(" ") };
}

/**
 * CPU time of a process (utime + stime, in clock ticks of 10 ms); with `children`, also that of its
 * ended children it waited for (cutime + cstime).
 */
function cpuMsOf(pid: number | string | undefined, { children = false } = {}): number {
  if (pid === undefined || !existsSync(`/proc/${pid}/stat`)) return Number.NaN;
  const { fields } = procStat(pid);
  const ticks = Number(fields[11]) + Number(fields[12]) + (children ? Number(fields[13]) + Number(fields[14]) : 0);
  return ticks * 10;
}

/** CPU time every process of the machine has used so far, in ms (the busy fields of /proc/stat). */
export function machineCpuMs(): number {
  const [, user, nice, system, , , irq, softirq, steal] = readFileSync("/proc/stat", "utf8").split("\n")[0]!.trim().split(/\s+/).map(Number);
  return (user! + nice! + system! + irq! + softirq! + steal!) * 10;
}

/**
 * CPU time the PostgreSQL processes (every server on the machine) have used so far, in ms: each
 * live process's own, and the postmasters' ended children's (a backend whose connection closed).
 */
export function postgresCpuMs(): number {
  let total = 0;
  for (const pid of readdirSync("/proc")) {
    if (!/^\d+$/.test(pid)) continue;
    try {
      if (procStat(pid).name === "postgres") total += cpuMsOf(pid, { children: true }) || 0;
    } catch {
      // The process ended between the listing and the read.
    }
  }
  return total;
}

/**
 * Starts a Node process and resolves when a line of its output matches `ready` (the line is
 * returned). Its output goes to this process's stderr with a prefix, once ready only if `quiet`
 * is false.
 */
export async function startProcess(
  name: string,
  args: string[],
  env: NodeJS.ProcessEnv,
  ready: RegExp | (() => Promise<boolean>),
): Promise<RunningProcess & { readyLine: string }> {
  const child = spawn(process.execPath, args, { cwd: root, env, stdio: ["ignore", "pipe", "pipe"] });
  let readyLine = "";
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${name} did not start within 120 s`)), 120_000);
    const done = () => {
      clearTimeout(timer);
      resolve();
    };
    let buffered = "";
    const onData = (chunk: Buffer) => {
      const text = chunk.toString("utf8");
      if (process.env["BENCH_VERBOSE"]) process.stderr.write(`[${name}] ${text}`);
      if (ready instanceof RegExp && !readyLine) {
        buffered += text;
        const line = buffered.split("\n").find((l) => ready.test(l));
        if (line) {
          readyLine = line;
          done();
        }
      }
    };
    child.stdout.on("data", onData);
    child.stderr.on("data", onData);
    child.once("exit", (code) => reject(new Error(`${name} exited (${code}) before it was ready`)));
    if (typeof ready === "function") {
      const poll = async () => {
        while (child.exitCode === null) {
          if (await ready().catch(() => false)) return done();
          await new Promise((r) => setTimeout(r, 200));
        }
      };
      void poll();
    }
  });
  return {
    child,
    readyLine,
    cpuMs: () => cpuMsOf(child.pid),
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill("SIGTERM");
      const timer = setTimeout(() => child.kill("SIGKILL"), 10_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

export interface BenchApp {
  url: string;
  server: RunningProcess;
  /** The local executor when it runs in a process of its own (`executorProcess`), for its CPU. */
  executor?: RunningProcess;
  /** The instance that serves the job functions when they have one of their own (`jobsInstance`). */
  jobs?: RunningProcess;
  /** The environment of the server (its database, S3, keys), for anchors on the same database. */
  env: Record<string, string>;
  stop(): Promise<void>;
}

/** Fresh services, `seed` run against them in this process, then `next start` of the build. */
export async function startBenchApp(options: {
  databaseName: string;
  seed: () => Promise<void>;
  env?: Record<string, string>;
  /** The run measures the framework-floor route, which only a `BENCH_BUILD=1` build has. */
  floor?: boolean;
  /** The local executor in a child process (scripts/bench/executor-process.ts), its CPU apart. */
  executorProcess?: boolean;
  /**
   * A second instance of the same build serves the job functions (the executor calls its
   * /api/inngest), as a deployment that gives background work instances of its own runs it
   * (docs/performance.md, "Job functions on their own instances"); `url` serves the requests.
   */
  jobsInstance?: boolean;
}): Promise<BenchApp> {
  if (!existsSync(path.join(root, ".next", "BUILD_ID")) || !existsSync(COMPILED_SERVER))
    throw new Error("no build in .next and dist/: run `BENCH_BUILD=1 npm run build` first");
  if (options.floor && !existsSync(path.join(root, ".next", "server", "app", "api", "bench-floor")))
    throw new Error("the build in .next has no framework-floor route: run `BENCH_BUILD=1 npm run build` first");
  const port = benchPort();
  const url = `http://127.0.0.1:${port}`;
  // The seed issues tokens in this process: their issuer and audience are the server's URL.
  const services = await startBenchServices({ databaseName: options.databaseName, tmpPrefix: "cp-bench-api-", env: { APP_URL: url } });
  const log = (line: string) => {
    if (process.env["BENCH_VERBOSE"]) process.stderr.write(`[bench] ${line}\n`);
  };
  const jobsUrl = options.jobsInstance ? `http://127.0.0.1:${benchPort(1)}` : url;
  const inngest = options.executorProcess ? await executorChild(`${jobsUrl}/api/inngest`) : await startDurableServices(log, "default");
  try {
    await options.seed();
    const { getDb } = await import("@/lib/db");
    await getDb().$disconnect();
    const env: Record<string, string> = {
      ...services.env,
      ...inngest.env,
      APP_URL: url,
      NODE_ENV: "production",
      NEXT_TELEMETRY_DISABLED: "1",
      LOG_LEVEL: "warn",
      OUTBOUND_ALLOW_PRIVATE: "true",
      // The benchmarks send far more than a day's default quota from one client.
      API_RATE_LIMIT_PER_DAY: "1000000000",
      ...options.env,
    };
    const profileDir = process.env["BENCH_CPU_PROF"];
    const nodeArgs = profileDir ? ["--cpu-prof", `--cpu-prof-dir=${path.resolve(profileDir)}`] : [];
    const server = await startProcess(
      "next",
      // server/index.ts, as `npm start`; BENCH_NEXT_START=1: plain `next start`, to compare.
      [...nodeArgs, ...productionServerArgs(port, "127.0.0.1", { nextStart: process.env["BENCH_NEXT_START"] === "1" })],
      { ...process.env, ...env },
      async () => (await fetch(`${url}/healthz`)).ok,
    );
    const jobs = options.jobsInstance
      ? await startProcess(
          "jobs",
          productionServerArgs(benchPort(1), "127.0.0.1"),
          { ...process.env, ...env },
          async () => (await fetch(`${jobsUrl}/healthz`)).ok,
        )
      : undefined;
    // Instances of their own have CPUs of their own; on this one machine the job instance and the
    // engine get a lower CPU priority instead, so the request instance is served first.
    for (const background of [jobs, "process" in inngest ? inngest.process : undefined])
      if (options.jobsInstance && background?.child.pid !== undefined) setPriority(background.child.pid, 10);
    await inngest.sync(`${jobsUrl}/api/inngest`).catch(() => undefined);
    return {
      url,
      server,
      ...("process" in inngest ? { executor: inngest.process } : {}),
      ...(jobs ? { jobs } : {}),
      env,
      async stop() {
        await server.stop();
        await jobs?.stop();
        await inngest.stop();
        await services.stop();
      },
    };
  } catch (error) {
    await inngest.stop();
    await services.stop();
    throw error;
  }
}

/** The executor as a child process; it syncs the app at `serveUrl` by itself once that answers. */
async function executorChild(serveUrl: string) {
  const child = await startProcess(
    "executor",
    ["--import", "tsx", path.join(root, "scripts/bench/executor-process.ts")],
    { ...process.env, SERVE_URL: serveUrl, EXECUTOR_PORT: String(benchPort(20)) },
    /^ready /,
  );
  const executorUrl = child.readyLine.trim().split(" ")[1]!;
  return {
    process: child as RunningProcess,
    env: { INNGEST_DEV: "1", INNGEST_BASE_URL: executorUrl },
    /** Waits until the executor knows the app's functions. */
    async sync() {
      const deadline = Date.now() + 120_000;
      while (Date.now() < deadline) {
        const res = await fetch(`${executorUrl}/_executor/state`).catch(() => null);
        if (res?.ok && ((await res.json()) as { functions: string[] }).functions.length > 0) return;
        await new Promise((r) => setTimeout(r, 200));
      }
      throw new Error("the executor did not sync the app within 120 s");
    },
    stop: () => child.stop(),
  };
}
