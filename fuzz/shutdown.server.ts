import { type ChildProcess, spawn } from "node:child_process";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, expect, it } from "vitest";
import { startTestServices, type TestServices } from "../scripts/test/services";
import { productionServerArgs } from "../scripts/lib/production-server.ts";

// Graceful shutdown of the production build (lib/shutdown.ts, registered in instrumentation.ts):
// SIGTERM during a slow request lets that request finish, refuses new connections, stops the
// event relay, and only then exits. The slow request is GET /readyz against a job engine stand-in
// that takes 1.5 s to answer. Its own `next start` on FUZZ_SHUTDOWN_PORT (default 3162).

const root = fileURLToPath(new URL("..", import.meta.url));
const port = Number(process.env["FUZZ_SHUTDOWN_PORT"] ?? 3162);
const base = `http://127.0.0.1:${port}`;

let services: TestServices;
let engine: Server;
let next: ChildProcess;
let output = "";

beforeAll(async () => {
  services = await startTestServices({ databaseName: "client_portals_shutdown", tmpPrefix: "cp-shutdown-" });
  engine = createServer((_req, res) => void setTimeout(() => res.writeHead(200).end("{}"), 1_500));
  await new Promise<void>((resolve) => engine.listen(0, "127.0.0.1", resolve));
  next = spawn(process.execPath, productionServerArgs(port), {
    cwd: root,
    env: {
      ...process.env,
      ...services.env,
      APP_URL: `http://localhost:${port}`,
      INNGEST_DEV: "1",
      INNGEST_BASE_URL: `http://127.0.0.1:${(engine.address() as AddressInfo).port}`,
      READINESS_TIMEOUT_MS: "5000",
      NEXT_TELEMETRY_DISABLED: "1",
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  next.stdout?.on("data", (chunk: Buffer) => (output += chunk.toString("utf8")));
  next.stderr?.on("data", (chunk: Buffer) => (output += chunk.toString("utf8")));
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (next.exitCode !== null) throw new Error(`next start exited: ${output}`);
    if (
      await fetch(`${base}/healthz`).then(
        (r) => r.ok,
        () => false,
      )
    )
      break;
    if (Date.now() > deadline) throw new Error(`next start did not answer /healthz: ${output}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}, 120_000);

afterAll(async () => {
  if (next.exitCode === null && next.signalCode === null) next.kill("SIGKILL");
  engine.closeAllConnections();
  await new Promise((r) => engine.close(r));
  await services.stop();
});

it("SIGTERM during a slow request: the request completes, new connections are refused, then the process exits", async () => {
  const exited = new Promise<{ code: number | null; at: number }>((resolve) => next.once("exit", (code) => resolve({ code, at: Date.now() })));
  const started = Date.now();
  const slow = fetch(`${base}/readyz`).then(async (r) => ({ status: r.status, body: (await r.json()) as { status: string }, at: Date.now() }));

  await new Promise((r) => setTimeout(r, 400));
  next.kill("SIGTERM");
  // The process takes the signal on its next turn of the event loop, which on a loaded machine can
  // be a few hundred milliseconds away: the new connection is tried once the server says it stops.
  const stopDeadline = Date.now() + 1_000;
  while (!output.includes("SIGTERM: finishing requests in flight") && Date.now() < stopDeadline) await new Promise((r) => setTimeout(r, 20));
  const late = await fetch(`${base}/healthz`).then(
    (r) => `answered ${r.status}`,
    (e: Error) => `refused (${e.message})`,
  );
  const lateAt = Date.now();

  const response = await slow;
  const exit = await exited;
  expect(response.at - started).toBeGreaterThanOrEqual(1_400);
  expect(response).toMatchObject({ status: 200, body: { status: "ready" } });
  expect(late).toMatch(/^refused/);
  // The refusal came while the slow request was still in flight.
  expect(lateAt).toBeLessThan(response.at);
  expect(exit.at).toBeGreaterThanOrEqual(response.at);
  expect(exit.code).toBe(143);
  expect(output).toContain('"msg":"event relay stopped"');
});
