import { randomUUID } from "node:crypto";
import { existsSync } from "node:fs";
import { chromium } from "@playwright/test";
import pg from "pg";
import { afterAll, beforeAll, expect, it } from "vitest";

import { startWebhookReceiver, bodyOf, type WebhookReceiver } from "../lib/webhooks/test-support/webhook-receiver.ts";
import { attempt, sleep, startServices, until, type Outcome, type Services } from "./harness.ts";

// The fault tier (npm run test:faults): the production build on services of its own that the
// tests stop and start while work is under way (see harness.ts). Each scenario prints its figures.

let services: Services;
let pool: pg.Pool;
let token = "";
let orgId = "";
const figures: string[] = [];

beforeAll(async () => {
  services = await startServices();
  // The token fixtures write to the faults database with the server's keys.
  Object.assign(process.env, services.env);
  const { createApiContext } = await import("../lib/test-support/fixtures.ts");
  const context = await createApiContext();
  token = context.token;
  orgId = context.org.id;
  // The fixtures' own client is not needed again; PostgreSQL restarts would only break it.
  const { getDb } = await import("../lib/db.ts");
  await getDb().$disconnect();
  pool = new pg.Pool({ connectionString: services.env["DATABASE_URL"], max: 2 });
  pool.on("error", () => undefined);
}, 240_000);

afterAll(async () => {
  process.stdout.write(`\n[faults] figures\n${figures.join("\n")}\n`);
  await pool?.end().catch(() => undefined);
  await services?.stop();
}, 60_000);

const headers = (extra: Record<string, string> = {}) => ({ Authorization: `Bearer ${token}`, "Content-Type": "application/json", ...extra });
const url = (path: string) => `${services.baseUrl}${path}`;

async function query<T extends pg.QueryResultRow>(sql: string, params: unknown[] = []): Promise<T[]> {
  return (await pool.query<T>(sql, params)).rows;
}

async function json<T>(path: string): Promise<T> {
  const res = await fetch(url(path), { headers: headers() });
  if (!res.ok) throw new Error(`GET ${path}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

async function post(path: string, body: unknown): Promise<Record<string, unknown>> {
  const res = await fetch(url(path), { method: "POST", headers: headers(), body: JSON.stringify(body) });
  const text = await res.text();
  if (res.status >= 300) throw new Error(`POST ${path}: ${res.status} ${text}`);
  return JSON.parse(text) as Record<string, unknown>;
}

type Kind = "success" | "clear503" | "unclear" | "hung";
const kindOf = (o: Outcome): Kind =>
  o.status === "hung"
    ? "hung"
    : typeof o.status === "number" && o.status < 300
      ? "success"
      : o.status === 503 && o.retryAfter !== null && /"error":"service_unavailable","error_description":"[^"]+"/.test(o.body)
        ? "clear503"
        : "unclear";

/** Every event of the organization is handed to the executor: all rows dispatched, then the executor's record. */
async function eventsHandedOver(timeoutMs = 90_000): Promise<Array<{ id: string; type: string; portalId: string | null; data: Record<string, unknown> }>> {
  await until(
    "every outbox row to be dispatched",
    async () =>
      (await query<{ n: string }>(`SELECT count(*) AS n FROM "Event" WHERE "orgId" = $1 AND "dispatchedAt" IS NULL`, [orgId]))[0]!.n === "0" ? true : undefined,
    timeoutMs,
  );
  return query(`SELECT id, type, "portalId", data FROM "Event" WHERE "orgId" = $1`, [orgId]);
}

/** How many times the executor accepted each event id (duplicates it ignored are not counted), and how many duplicates it ignored. */
function executorCounts(): { accepted: Map<string, number>; duplicates: number } {
  const accepted = new Map<string, number>();
  let duplicates = 0;
  for (const e of services.executor.events) {
    if (e.duplicate) duplicates += 1;
    else accepted.set(e.id, (accepted.get(e.id) ?? 0) + 1);
  }
  return { accepted, duplicates };
}

it("PostgreSQL restarted twice under 16 clients: every request ends clearly, nothing is lost or doubled, the server recovers by itself", async () => {
  const CLIENTS = 16;
  const RUN_MS = 20_000;
  const started = Date.now();
  const outcomes: Array<Outcome & { kind: Kind; what: string }> = [];
  /** The portals (and tasks) the clients were told were created. */
  const created: Array<{ portalId: string; name: string }> = [];
  const tasks: Array<{ taskId: string; portalId: string }> = [];
  const names: string[] = [];

  /** One POST, retried once with the same Idempotency-Key after a refusal that says to retry. */
  async function create(what: string, path: string, body: unknown): Promise<Record<string, unknown> | undefined> {
    const key = randomUUID();
    for (let tries = 0; tries < 2; tries += 1) {
      const o = await attempt(url(path), { method: "POST", headers: headers({ "Idempotency-Key": key }), body: JSON.stringify(body) });
      const kind = kindOf(o);
      outcomes.push({ ...o, kind, what });
      if (kind === "success") return JSON.parse((o as { body: string }).body) as Record<string, unknown>;
      if (kind !== "clear503") return undefined;
      await sleep(Math.min(Number((o as { retryAfter: string }).retryAfter) * 1000, 1_000));
    }
    return undefined;
  }

  const client = async (n: number) => {
    for (let i = 0; Date.now() - started < RUN_MS; i += 1) {
      const name = `Fault ${n}-${i}`;
      names.push(name);
      const portal = await create("createPortal", "/api/v1/portals", { name });
      if (!portal) continue;
      created.push({ portalId: String(portal["id"]), name });
      const task = await create("createTask", `/api/v1/portals/${String(portal["id"])}/tasks`, { title: `Task of ${name}` });
      if (task) tasks.push({ taskId: String(task["task_id"]), portalId: String(portal["id"]) });
    }
  };

  const restarts = (async () => {
    await sleep(4_000);
    await services.postgres.stop("fast");
    await sleep(1_500);
    await services.postgres.start();
    await sleep(6_000);
    // The second time as after a crash: no clean shutdown, recovery from the WAL.
    await services.postgres.stop("immediate");
    await sleep(1_500);
    await services.postgres.start();
  })();
  await Promise.all([...Array.from({ length: CLIENTS }, (_, n) => client(n)), restarts]);

  // The server recovers without a restart: the same process answers, ready, and creates again.
  const pid = services.server.pid;
  await until(
    "GET /readyz to answer 200 after the restarts",
    async () => ((await attempt(url("/readyz"), {}, 5_000)).status === 200 ? true : undefined),
    30_000,
  );
  const after = await post("/api/v1/portals", { name: "After the restarts" });
  created.push({ portalId: String(after["id"]), name: "After the restarts" });
  expect(services.server.exitCode).toBeNull();
  expect(services.server.pid).toBe(pid);

  const count = (k: Kind) => outcomes.filter((o) => o.kind === k).length;
  const unclear = outcomes.filter((o) => o.kind === "unclear" || o.kind === "hung");
  const slowest = Math.max(...outcomes.map((o) => o.ms));

  // Every 201 portal exists, once per name (the retried ones were not created twice).
  const rows = await query<{ id: string; name: string }>(`SELECT id, name FROM "Portal" WHERE "orgId" = $1`, [orgId]);
  const byName = new Map<string, number>();
  for (const r of rows) byName.set(r.name, (byName.get(r.name) ?? 0) + 1);
  const missing = created.filter((c) => !rows.some((r) => r.id === c.portalId));
  const doubled = [...byName].filter(([, n]) => n > 1);
  const taskRows = await query<{ id: string; portalId: string }>(
    `SELECT t.id, t."portalId" FROM "Task" t JOIN "Portal" p ON p.id = t."portalId" WHERE p."orgId" = $1`,
    [orgId],
  );

  // The outbox: exactly one event per committed change (a portal.created per portal row, a
  // task.created per task row), and nothing for a change that did not commit.
  const events = await eventsHandedOver();
  const portalEvents = events.filter((e) => e.type === "portal.created");
  const taskEvents = events.filter((e) => e.type === "task.created");
  const perPortal = new Map<string, number>();
  for (const e of portalEvents) perPortal.set(e.portalId ?? "", (perPortal.get(e.portalId ?? "") ?? 0) + 1);
  const perTask = new Map<string, number>();
  for (const e of taskEvents) perTask.set(String(e.data["task_id"]), (perTask.get(String(e.data["task_id"])) ?? 0) + 1);

  // Every event reached the executor exactly once (a repeated hand-over carries the same id and is ignored as a duplicate).
  await sleep(1_000);
  const { accepted, duplicates } = executorCounts();
  const lost = events.filter((e) => !accepted.has(e.id));
  const twice = events.filter((e) => (accepted.get(e.id) ?? 0) > 1);

  figures.push(
    `postgres restarts (fast, immediate) under ${CLIENTS} clients for ${RUN_MS / 1000} s: requests ${outcomes.length}, successes ${count("success")}, ` +
      `503s ${count("clear503")}, unclear ${count("unclear")}, hung ${count("hung")}, slowest ${slowest} ms; portals ${rows.length} (201s ${created.length}), tasks ${taskRows.length}; ` +
      `events ${events.length}, delivered to the executor once ${events.filter((e) => accepted.get(e.id) === 1).length}, duplicates ignored by it ${duplicates}, losses ${lost.length}, doubled ${twice.length}`,
  );

  expect(
    unclear.map((o) => `${o.what}: ${o.status} ${"body" in o ? o.body.slice(0, 200) : o.error}`),
    "requests that neither succeeded nor answered a clear 503",
  ).toEqual([]);
  expect(count("clear503") + count("success")).toBe(outcomes.length);
  expect(slowest).toBeLessThan(30_000);
  expect(count("success")).toBeGreaterThan(CLIENTS);
  expect(missing).toEqual([]);
  expect(doubled).toEqual([]);
  expect(
    rows.filter((r) => perPortal.get(r.id) !== 1).map((r) => `${r.name}: ${perPortal.get(r.id) ?? 0} portal.created events`),
    "one portal.created per portal",
  ).toEqual([]);
  expect(portalEvents).toHaveLength(rows.length);
  expect(taskRows.filter((t) => perTask.get(t.id) !== 1).map((t) => `${t.id}: ${perTask.get(t.id) ?? 0} task.created events`)).toEqual([]);
  expect(taskEvents).toHaveLength(taskRows.length);
  expect(tasks.filter((t) => !taskRows.some((r) => r.id === t.taskId))).toEqual([]);
  expect(lost.map((e) => `${e.type} ${e.id}`)).toEqual([]);
  expect(twice.map((e) => `${e.type} ${e.id}`)).toEqual([]);
  expect(names.length).toBeGreaterThan(0);
}, 240_000);

it("a page while PostgreSQL is down: the app's error page in Chromium (Try again, Go home, no detail leaked); Try again once it is back shows the page", async () => {
  const browser = await chromium.launch({
    ...(existsSync("/usr/bin/chromium") ? { executablePath: "/usr/bin/chromium" } : {}),
    args: ["--no-sandbox", "--disable-gpu"],
  });
  try {
    const page = await browser.newPage({ viewport: { width: 390, height: 844 } });
    // A public page that reads the database (is the reset link usable?); the proxy does not.
    const path = `/reset-password/${"x".repeat(43)}`;
    await services.postgres.stop("fast");
    let status: number | undefined;
    try {
      status = (await page.goto(url(path)))?.status();
      const error = page.getByTestId("server-error");
      await error.getByRole("heading", { name: "This page could not be loaded" }).waitFor();
      await page.getByRole("link", { name: "Go home" }).waitFor();
      const text = (await error.innerText()).toLowerCase();
      await page.screenshot({ path: "test-results/faults/page-while-database-down.png", fullPage: true });
      // What the server knows stays there: no driver message, host or stack in the page.
      for (const leak of ["econnrefused", "postgres", "prisma", "127.0.0.1", " at "]) expect(text).not.toContain(leak);
      expect(await page.title()).toBe("Something went wrong · Client Portals");
    } finally {
      await services.postgres.start();
    }
    expect(status).toBe(500);
    await until(
      "the page to render after Try again",
      async () => {
        const button = page.getByRole("button", { name: "Try again" });
        if (await button.isVisible()) await button.click();
        return (await page.getByText("This password reset link has expired or was already used.").isVisible()) ? true : undefined;
      },
      30_000,
    );
    await page.screenshot({ path: "test-results/faults/page-after-try-again.png", fullPage: true });
    figures.push(`page while the database is down: ${status} with the app's error page; Try again after it is back renders the page`);
  } finally {
    await browser.close();
  }
});

it("the object store down during a two-step upload complete: a clear 503, nothing half-registered, the retry succeeds once it is back", async () => {
  const portal = await post("/api/v1/portals", { name: "Upload under faults" });
  const portalId = String(portal["id"]);
  const bytes = Buffer.from("a file the storage keeps\n");
  const ticket = await post(`/api/v1/portals/${portalId}/files`, { filename: "ledger.txt", contentType: "text/plain", size: bytes.length });
  const put = await fetch(String(ticket["upload_url"]), { method: "PUT", headers: ticket["headers"] as Record<string, string>, body: bytes });
  expect(put.status).toBe(200);
  const fileId = String(ticket["file_id"]);
  const fileState = async () => (await query<{ status: string }>(`SELECT status::text FROM "FileEntry" WHERE id = $1`, [fileId]))[0]?.status;
  const uploadedEvents = async () =>
    Number((await query<{ n: string }>(`SELECT count(*) AS n FROM "Event" WHERE type = 'file.uploaded' AND data->>'file_id' = $1`, [fileId]))[0]!.n);
  const before = await fileState();

  await services.s3.stop();
  const complete = () =>
    attempt(url(`/api/v1/portals/${portalId}/files/complete`), {
      method: "POST",
      headers: headers({ "Idempotency-Key": `complete-${fileId}` }),
      body: JSON.stringify({ file_id: fileId, filename: "ledger.txt" }),
    });
  const down = await complete();
  const stateWhileDown = await fileState();
  const eventsWhileDown = await uploadedEvents();
  await services.s3.start();
  const retried = await complete();
  const stateAfter = await fileState();
  const eventsAfter = await uploadedEvents();

  figures.push(
    `object store down during complete: answered ${down.status} (Retry-After ${"retryAfter" in down ? down.retryAfter : "-"}) in ${down.ms} ms; ` +
      `file ${before} -> ${stateWhileDown} while down, ${stateAfter} after the retry (${retried.status}); file.uploaded events ${eventsWhileDown} then ${eventsAfter}`,
  );
  expect(down).toMatchObject({ status: 503, retryAfter: expect.stringMatching(/^\d+$/), body: expect.stringContaining("service_unavailable") });
  expect(down.ms).toBeLessThan(30_000);
  expect(stateWhileDown).toBe(before);
  expect(eventsWhileDown).toBe(0);
  expect(retried.status, "body" in retried ? retried.body : retried.error).toBe(201);
  expect(stateAfter).not.toBe(before);
  expect(eventsAfter).toBe(1);
  const download = await json<{ files?: unknown }>(`/api/v1/portals/${portalId}/files`);
  expect(JSON.stringify(download)).toContain(fileId);
}, 120_000);

it("the job engine down for the whole webhook retry window, then back: every delivery accounted for exactly once", async () => {
  // Retry sleeps of 30 s, 2 min, 8 min take 0.3, 1.2 and 4.8 s: the window is about 6.3 s.
  services.executor.setTimeScale(0.01);
  const receiver: WebhookReceiver = await startWebhookReceiver();
  try {
    const hook = await post("/api/v1/webhooks", { url: receiver.url, events: ["portal.created"] });
    const webhookId = String(hook["webhook_id"]);
    receiver.setFallback(500);

    // Before the outage: deliveries whose first attempt fails, so they sit in their retry waits.
    const first: string[] = [];
    for (let i = 0; i < 4; i += 1) first.push(String((await post("/api/v1/portals", { name: `Retry window ${i}` }))["id"]));
    await until("a first attempt of each delivery", () => (new Set(receiver.requests.map((r) => bodyOf(r).portal_id)).size >= 4 ? true : undefined), 30_000);

    await services.executor.down();
    receiver.setFallback(200);
    const attemptsAtOutage = receiver.requests.length;
    // During the outage: changes whose events wait in the outbox.
    const second: string[] = [];
    for (let i = 0; i < 4; i += 1) second.push(String((await post("/api/v1/portals", { name: `During the outage ${i}` }))["id"]));
    await sleep(8_000);
    const attemptsDuringOutage = receiver.requests.length - attemptsAtOutage;
    await services.executor.up();

    const portals = [...first, ...second];
    type Delivery = { delivery_id: string; event_id: string; status: string; attempts: Array<{ status_code: number | null }> };
    const deliveries = await until(
      "every delivery to end",
      async () => {
        const list = await json<Delivery[]>(`/api/v1/webhooks/${webhookId}/deliveries`);
        return list.length === portals.length && list.every((d) => d.status !== "pending") ? list : undefined;
      },
      90_000,
    );
    await sleep(1_500);
    const webhooks = await json<Array<{ webhook_id: string; success_count: number; failure_count: number }>>("/api/v1/webhooks");
    const counters = webhooks.find((w) => w.webhook_id === webhookId)!;

    const received = new Map<string, number>();
    for (const r of receiver.requests)
      received.set(String(r.headers["x-webhook-delivery-id"]), (received.get(String(r.headers["x-webhook-delivery-id"])) ?? 0) + 1);
    const delivered = new Set(receiver.requests.map((r) => String(bodyOf(r).portal_id)));
    const succeeded = deliveries.filter((d) => d.status === "succeeded").length;
    const mismatched = deliveries.filter((d) => d.attempts.length !== received.get(d.delivery_id));
    const { accepted, duplicates } = executorCounts();
    const eventIds = deliveries.map((d) => d.event_id);

    figures.push(
      `job engine down ${8} s across the retry window: deliveries ${deliveries.length} (succeeded ${succeeded}), attempts ${receiver.requests.length} ` +
        `(${attemptsDuringOutage} while down), counters success ${counters.success_count} failure ${counters.failure_count}, ` +
        `executor duplicates ignored ${duplicates}, losses ${portals.filter((p) => !delivered.has(p)).length}`,
    );
    expect(attemptsDuringOutage).toBe(0);
    expect(portals.filter((p) => !delivered.has(p))).toEqual([]);
    expect(new Set(deliveries.map((d) => d.event_id)).size).toBe(portals.length);
    expect(deliveries.map((d) => d.status)).toEqual(portals.map(() => "succeeded"));
    expect(counters).toMatchObject({ success_count: portals.length, failure_count: 0 });
    expect(mismatched.map((d) => `${d.delivery_id}: ${d.attempts.length} attempts recorded, ${received.get(d.delivery_id) ?? 0} received`)).toEqual([]);
    expect(eventIds.filter((id) => accepted.get(id) !== 1)).toEqual([]);
    // Every request after the outage was answered 200: each delivery got exactly one of them.
    const answered200 = receiver.requests.slice(attemptsAtOutage).map((r) => String(r.headers["x-webhook-delivery-id"]));
    expect(deliveries.filter((d) => answered200.filter((id) => id === d.delivery_id).length !== 1).map((d) => d.delivery_id)).toEqual([]);
    expect(answered200).toHaveLength(deliveries.length);
  } finally {
    services.executor.setTimeScale(0.001);
    await services.executor.up();
    await receiver.close();
  }
}, 180_000);
