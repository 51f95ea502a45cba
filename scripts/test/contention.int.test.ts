import { type ChildProcess, spawn } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";

import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { db, TRANSACTION_RETRIED } from "@/lib/db";
import { env, resetEnvForTests } from "@/lib/env";
import { SANDBOX_API_KEY, startPartnerSandbox, type PartnerSandbox } from "@/scripts/partner-sandbox";
import { checkContention, checkCounters, createContentionOrg, figures, runContention, type Sql } from "./contention-load.ts";
import { InngestExecutor } from "./inngest-executor.ts";

// Writes that survive contention (docs/database.md), short version of the fault tier's 60 s run:
// 16 API clients hammer one portal with every kind of write against an app instance (the
// production route handlers, its event relay, its Inngest functions run by the local executor, the
// partner verification against the sandbox partner). No answer is a 5xx; every 2xx change is in the
// database exactly once with exactly one event, handed to the engine once; the counters are exact.

const root = fileURLToPath(new URL("../..", import.meta.url));
const PORT = 3640;
const CLIENTS = 16;
const SECONDS = Number(process.env["CONTENTION_SECONDS"] ?? 10);

let executor: InngestExecutor;
let sandbox: PartnerSandbox;
let child: ChildProcess | undefined;
let retried = 0;
const baseUrl = `http://127.0.0.1:${PORT}`;

function startInstance(extraEnv: Record<string, string>): Promise<void> {
  const instance = spawn(process.execPath, ["--conditions=react-server", "--import", "tsx", path.join(root, "scripts/test/app-instance.ts")], {
    cwd: root,
    env: { ...process.env, ...extraEnv, PORT: String(PORT) },
    stdio: ["ignore", "pipe", "pipe"],
  });
  child = instance;
  instance.stderr.on("data", (c: Buffer) => process.stderr.write(`[instance] ${c.toString()}`));
  instance.stdout.on("data", (c: Buffer) => {
    for (const line of c.toString().split("\n")) {
      if (line.includes(TRANSACTION_RETRIED)) retried++;
      else if (/"level":"(error|fatal)"|"level":(50|60)/.test(line)) process.stderr.write(`[instance] ${line}\n`);
    }
  });
  return new Promise((resolve, reject) => {
    instance.stdout.on("data", (c: Buffer) => {
      if (c.toString().includes("listening")) resolve();
    });
    instance.once("exit", (code) => reject(new Error(`instance exited (${code})`)));
  });
}

beforeAll(async () => {
  // The test connects the organization to the sandbox partner on loopback, as the instance calls it.
  process.env["OUTBOUND_ALLOW_PRIVATE"] = "true";
  resetEnvForTests();
  executor = new InngestExecutor({ timeScale: 0.001 });
  await executor.listen();
  sandbox = await startPartnerSandbox();
  await startInstance({
    APP_URL: env().APP_URL,
    API_URL: env().API_URL,
    INNGEST_DEV: "1",
    INNGEST_BASE_URL: executor.url,
    OUTBOUND_ALLOW_PRIVATE: "true",
    LOG_LEVEL: "info",
  });
  await executor.syncWhenUp(`${baseUrl}/api/inngest`, 60_000);
}, 120_000);

afterAll(async () => {
  if (child && child.exitCode === null && child.signalCode === null) {
    const exited = new Promise<void>((resolve) => child!.once("exit", () => resolve()));
    child.kill("SIGTERM");
    await exited;
  }
  await executor?.close();
  await sandbox?.close();
});

const sql: Sql = (text, values = []) => db.$queryRawUnsafe(text, ...values);

async function until(check: () => Promise<boolean>, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`${what}: not reached within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

describe("contention", () => {
  it(`${CLIENTS} clients write to one portal for ${SECONDS} s with the relay and the partner verification running: no 5xx, every change once with one event`, async () => {
    const { orgId, tokens, states, portalIds } = await createContentionOrg({ clients: CLIENTS, portals: 1, partnerUrl: sandbox.url, apiKey: SANDBOX_API_KEY });
    const portalId = portalIds[0]!;
    const before = retried;

    const run = await runContention({ baseUrl, tokens, portalId, states, durationMs: SECONDS * 1000 });
    process.stdout.write(`[contention] ${figures(`${CLIENTS} clients`, run, retried - before, SECONDS)}\n`);

    expect(run.failures).toEqual([]);
    expect(run.refused).toEqual([]);
    await until(async () => (await db.event.count({ where: { orgId: orgId, dispatchedAt: null } })) === 0, 60_000, "every event dispatched");
    const check = await checkContention(sql, run, orgId, portalId);
    expect(check.problems).toEqual([]);
    expect(await checkCounters(baseUrl, tokens[0]!, run, portalId)).toEqual([]);
    // Handed to the engine once each: no event id accepted twice.
    const ids = new Set((await db.event.findMany({ where: { orgId: orgId }, select: { id: true } })).map((e) => e.id));
    const accepted = executor.events.filter((e) => ids.has(e.id) && !e.duplicate);
    expect(accepted.length).toBe(ids.size);
    expect(new Set(accepted.map((e) => e.id)).size).toBe(ids.size);
  });
});
