/**
 * Global setup of the fuzz tier: the production build (the application server) on fresh services, through
 * scripts/e2e-server.ts like the e2e tier, on FUZZ_PORT (default 3161). Its environment (the
 * database the tests count rows in, the keys tokens are signed with) and the run's seed reach the
 * test workers through provide/inject (see env.ts).
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { TestProject } from "vitest/node";

const root = fileURLToPath(new URL("..", import.meta.url));

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const seed = process.env["FUZZ_SEED"] ? Number(process.env["FUZZ_SEED"]) : Math.floor(Math.random() * 2 ** 31);
  if (!Number.isSafeInteger(seed)) throw new Error(`FUZZ_SEED must be an integer, not ${process.env["FUZZ_SEED"]}`);
  process.stdout.write(`[fuzz] seed ${seed} (repeat this run with FUZZ_SEED=${seed})\n`);

  const port = Number(process.env["FUZZ_PORT"] ?? 3161);
  const dir = mkdtempSync(path.join(tmpdir(), "cp-fuzz-"));
  const envFile = path.join(dir, "server-env.json");
  const server = spawn(process.execPath, ["--conditions=react-server", "--import", "tsx", path.join(root, "scripts/e2e-server.ts")], {
    cwd: root,
    env: { ...process.env, E2E_PORT: String(port), E2E_SERVER_ENV_FILE: envFile },
    stdio: ["ignore", "inherit", "inherit"],
  });
  const stop = () => stopServer(server).finally(() => rmSync(dir, { recursive: true, force: true }));
  try {
    const baseUrl = `http://localhost:${port}`;
    await waitForServer(server, `${baseUrl}/sign-in`, 180_000);
    const env = JSON.parse(readFileSync(envFile, "utf8")) as Record<string, string>;
    project.provide("fuzz", { env, seed, baseUrl });
  } catch (error) {
    await stop();
    throw error;
  }
  return stop;
}

async function waitForServer(server: ChildProcess, url: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (server.exitCode !== null || server.signalCode !== null) throw new Error("the fuzz tier's server exited before it was ready");
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error(`the fuzz tier's server did not answer ${url} within ${timeoutMs / 1000} s`);
}

async function stopServer(server: ChildProcess): Promise<void> {
  if (server.exitCode !== null || server.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => server.once("exit", () => resolve()));
  server.kill("SIGTERM");
  const timer = setTimeout(() => server.kill("SIGKILL"), 15_000);
  await exited;
  clearTimeout(timer);
}
