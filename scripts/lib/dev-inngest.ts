import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";

import { InngestExecutor } from "../test/inngest-executor.ts";

// `npm run dev`'s Inngest: the real Dev Server when it can run here, the local executor otherwise.
//
//   INNGEST_DEV / INNGEST_BASE_URL set    yours: nothing is started
//   DEV_INNGEST=cli|npx|local             forces a choice
//   `inngest-cli` on PATH                 `inngest-cli dev -u <app>/api/inngest`
//   `npx inngest-cli` runs                the same through npx (tried once; a failure is remembered
//                                         for a day in .data/dev-inngest.json, so starts stay quick)
//   otherwise                             the local executor (scripts/test/inngest-executor.ts)

const NPX_PROBE_TIMEOUT_MS = 15_000;
const DAY_MS = 86_400_000;

export type DevInngest = {
  /** One line for the launcher's output: which Inngest runs, and where to watch it. */
  description: string;
  env: Record<string, string>;
  /** Called once the app is up: the local executor syncs it (the Dev Server polls by itself). */
  appReady(serveUrl: string): Promise<void>;
  stop(): Promise<void>;
};

function onPath(command: string): boolean {
  return spawnSync(process.platform === "win32" ? "where" : "which", [command], { stdio: "ignore" }).status === 0;
}

/** Whether `npx inngest-cli` can be fetched and run, within a bounded time. */
function npxWorks(dataDir: string): boolean {
  const memo = path.join(dataDir, "dev-inngest.json");
  try {
    const { npxFailedAt } = JSON.parse(readFileSync(memo, "utf8")) as { npxFailedAt?: number };
    if (npxFailedAt && Date.now() - npxFailedAt < DAY_MS) return false;
  } catch {
    // No memo yet.
  }
  const probe = spawnSync("npx", ["--yes", "inngest-cli@latest", "version"], { stdio: "ignore", timeout: NPX_PROBE_TIMEOUT_MS });
  const works = probe.status === 0;
  if (!works) {
    mkdirSync(dataDir, { recursive: true });
    writeFileSync(memo, JSON.stringify({ npxFailedAt: Date.now() }));
  }
  return works;
}

function devServer(command: string, args: string[], port: number, appUrl: string): DevInngest {
  const url = `http://127.0.0.1:${port}`;
  let child: ChildProcess | undefined;
  return {
    description: `Inngest Dev Server (${command}) at ${url}: its UI lists events and runs`,
    env: { INNGEST_DEV: url },
    async appReady() {
      child = spawn(command, [...args, "dev", "--port", String(port), "--no-discovery", "-u", `${appUrl}/api/inngest`], { stdio: "ignore" });
    },
    async stop() {
      child?.kill("SIGTERM");
    },
  };
}

export async function startDevInngest(options: { env: NodeJS.ProcessEnv; dataDir: string; appUrl: string; log: (line: string) => void }): Promise<DevInngest> {
  const { env, dataDir, appUrl, log } = options;
  if (env.INNGEST_DEV || env.INNGEST_BASE_URL) {
    const url = env.INNGEST_BASE_URL ?? env.INNGEST_DEV ?? "";
    return { description: `your Inngest (INNGEST_DEV / INNGEST_BASE_URL: ${url}); nothing started`, env: {}, appReady: async () => {}, stop: async () => {} };
  }
  const port = Number(env.DEV_INNGEST_PORT ?? 8288);
  const choice = env.DEV_INNGEST ?? "auto";
  if (choice === "cli" || (choice === "auto" && onPath("inngest-cli"))) return devServer("inngest-cli", [], port, appUrl);
  if (choice === "npx" || (choice === "auto" && npxWorks(dataDir))) {
    return devServer("npx", ["--yes", "inngest-cli@latest"], port, appUrl);
  }

  const executor = new InngestExecutor({ port, cron: true, log: (line) => log(`inngest: ${line}`) });
  const url = await executor.listen();
  return {
    description: `local Inngest executor at ${url} (no inngest-cli here): watch events and runs at ${appUrl}/dev/inngest`,
    env: { INNGEST_DEV: url },
    // next dev compiles the route on its first request, which can take a while.
    appReady: (serveUrl) => executor.syncWhenUp(serveUrl, 120_000),
    stop: () => executor.close(),
  };
}
