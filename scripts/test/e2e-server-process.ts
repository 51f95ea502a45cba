/**
 * The production build on fresh services (scripts/e2e-server.ts) as a child process, for test
 * tiers that start their own server in a global setup (fuzz, client): started on a port, its
 * environment read back (the database, the keys tokens are signed with), stopped at the end.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("../..", import.meta.url));

export interface E2eServer {
  baseUrl: string;
  /** The server's environment (E2E_SERVER_ENV_FILE): DATABASE_URL, AUTH_SECRET, APP_URL, ... */
  env: Record<string, string>;
  stop: () => Promise<void>;
}

export async function startE2eServer({ port, label, env = {} }: { port: number; label: string; env?: Record<string, string> }): Promise<E2eServer> {
  const dir = mkdtempSync(path.join(tmpdir(), `cp-${label}-`));
  const envFile = path.join(dir, "server-env.json");
  const server = spawn(process.execPath, ["--conditions=react-server", "--import", "tsx", path.join(root, "scripts/e2e-server.ts")], {
    cwd: root,
    env: { ...process.env, ...env, E2E_PORT: String(port), E2E_SERVER_ENV_FILE: envFile },
    stdio: ["ignore", "inherit", "inherit"],
  });
  const stop = () => stopServer(server).finally(() => rmSync(dir, { recursive: true, force: true }));
  try {
    const baseUrl = `http://localhost:${port}`;
    await waitForServer(server, `${baseUrl}/sign-in`, 180_000, label);
    return { baseUrl, env: JSON.parse(readFileSync(envFile, "utf8")) as Record<string, string>, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

async function waitForServer(server: ChildProcess, url: string, timeoutMs: number, label: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (server.exitCode !== null || server.signalCode !== null) throw new Error(`the ${label} tier's server exited before it was ready`);
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error(`the ${label} tier's server did not answer ${url} within ${timeoutMs / 1000} s`);
}

async function stopServer(server: ChildProcess): Promise<void> {
  if (server.exitCode !== null || server.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => server.once("exit", () => resolve()));
  server.kill("SIGTERM");
  const timer = setTimeout(() => server.kill("SIGKILL"), 15_000);
  await exited;
  clearTimeout(timer);
}
