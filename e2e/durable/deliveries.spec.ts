import { randomBytes } from "node:crypto";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { expect, test, type APIRequestContext } from "@playwright/test";

import { startWebhookReceiver, type WebhookReceiver } from "../../lib/webhooks/test-support/webhook-receiver.ts";
import { DEFAULT_TIME_SCALE } from "../../scripts/test/durable-services.ts";
import { authorizeNewClient, callbackServer } from "../support";
import { bodyOf, ended, runsOf, setTimeScale, signatureVerifies, startExecutor, state, stopExecutor, subjectOf, until } from "./support";

// Durable work end to end, against the production build: the relay hands the outbox to the local
// Inngest executor (cloud mode: signed calls, event key), which calls /api/inngest; the functions
// deliver webhooks to receivers on loopback and email through an SMTP sink.

test.describe.configure({ mode: "serial" });

const callback = callbackServer();
let headers: { Authorization: string };
const receivers: WebhookReceiver[] = [];
const tag = randomBytes(3).toString("hex");

const SUBSCRIBABLE = ["portal.created", "portal.workflow_changed", "file.uploaded", "file.signed", "task.created", "task.completed", "guest.invited"];

test.beforeAll(async ({ browser }) => {
  await until("the executor to sync the app", (s) => (s.functions.includes("client-portals-webhook-delivery") ? true : undefined), 60_000);
  const context = await browser.newContext();
  const { accessToken } = await authorizeNewClient(await context.newPage(), context.request, {
    name: "Durable e2e",
    redirectUri: callback.uri,
    scopes: ["portal:read", "portal:write", "file:upload", "task:read", "task:write", "guest:invite", "webhook:manage"],
  });
  headers = { Authorization: `Bearer ${accessToken}` };
  await context.close();
});

test.afterAll(async () => {
  await setTimeScale(DEFAULT_TIME_SCALE);
  await startExecutor().catch(() => undefined);
  for (const r of receivers) await r.close();
});

async function receiver(): Promise<WebhookReceiver> {
  const r = await startWebhookReceiver();
  receivers.push(r);
  return r;
}

async function createWebhook(request: APIRequestContext, url: string, events: string[]) {
  const res = await request.post("/api/v1/webhooks", { headers, data: { url, events } });
  expect(res.status(), await res.text()).toBe(201);
  return (await res.json()) as { webhook_id: string; secret: string };
}

async function createPortal(request: APIRequestContext, name: string) {
  const res = await request.post("/api/v1/portals", { headers, data: { name } });
  expect(res.status(), await res.text()).toBe(201);
  return (await res.json()) as { id: string; name: string };
}

async function webhook(request: APIRequestContext, id: string) {
  const list = (await (await request.get("/api/v1/webhooks", { headers })).json()) as Array<{
    webhook_id: string;
    success_count: number;
    failure_count: number;
  }>;
  return list.find((w) => w.webhook_id === id)!;
}

async function deliveries(request: APIRequestContext, webhookId: string) {
  const res = await request.get(`/api/v1/webhooks/${webhookId}/deliveries`, { headers });
  expect(res.status()).toBe(200);
  return (await res.json()) as Array<{
    delivery_id: string;
    event_id: string;
    status: string;
    attempts: Array<{ number: number; status_code: number | null }>;
  }>;
}

/** The webhook-delivery run of a delivery, once it has ended. */
const deliveryRun = (deliveryId: string) =>
  until(`the webhook-delivery run of ${deliveryId} to end`, (s) =>
    runsOf(s, "webhook-delivery").find((r) => (r.event.data as { delivery_id?: string }).delivery_id === deliveryId && ended(r)),
  );

test("every subscribable event reaches the receiver signed over its raw bytes, and the invitation goes out by SMTP", async ({ request }) => {
  const r = await receiver();
  const hook = await createWebhook(request, r.url, SUBSCRIBABLE);

  const portal = await createPortal(request, `Durable ${tag}`);
  const states = (await (await request.get("/api/v1/workflow-states", { headers })).json()) as Array<{ id: string; name: string }>;
  const target = states[states.length - 1]!;
  expect(
    (await request.post(`/api/v1/portals/${portal.id}/workflow`, { headers, data: { workflowStateId: target.id, workflowStateName: target.name } })).status(),
  ).toBe(200);

  const bytes = Buffer.from(`durable ${tag}\n`);
  const upload = await request.post(`/api/v1/portals/${portal.id}/files`, {
    headers,
    data: { filename: "notes.txt", contentType: "text/plain", size: bytes.length },
  });
  expect(upload.status(), await upload.text()).toBe(200);
  const slot = (await upload.json()) as { file_id: string; upload_url: string; headers: Record<string, string> };
  expect((await request.put(slot.upload_url, { headers: slot.headers, data: bytes })).status()).toBe(200);
  const completed = await request.post(`/api/v1/portals/${portal.id}/files/complete`, { headers, data: { file_id: slot.file_id, filename: "notes.txt" } });
  expect(completed.status(), await completed.text()).toBe(201);

  const task = await request.post(`/api/v1/portals/${portal.id}/tasks`, { headers, data: { title: `Send the ledger ${tag}` } });
  expect(task.status()).toBe(201);
  const { task_id: taskId } = (await task.json()) as { task_id: string };
  expect((await request.post(`/api/v1/tasks/${taskId}/complete`, { headers })).status()).toBe(200);

  const guestEmail = `durable-${tag}@client.test`;
  expect((await request.post(`/api/v1/portals/${portal.id}/guests`, { headers, data: { email: guestEmail, name: "Dana Durable" } })).status()).toBe(201);

  const produced = SUBSCRIBABLE.filter((e) => e !== "file.signed");
  await expect.poll(() => new Set(r.requests.map((q) => bodyOf(q).event)).size, { timeout: 20_000 }).toBe(produced.length);

  const byEvent = Object.fromEntries(r.requests.map((q) => [bodyOf(q).event as string, q]));
  for (const name of produced) {
    const req = byEvent[name]!;
    expect(signatureVerifies(req, hook.secret), `${name}: signature over the raw body`).toBe(true);
    expect(req.headers["x-webhook-event"]).toBe(name);
    expect(req.headers["content-type"]).toBe("application/json");
    expect(String(req.headers["x-webhook-delivery-id"])).toMatch(/^[0-9a-f-]{36}$/);
    expect(bodyOf(req)).toMatchObject({
      event: name,
      event_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      org_id: expect.any(String),
      portal_id: portal.id,
      portal_name: portal.name,
      external_system_ids: {},
      timestamp: expect.any(String),
      occurred_at: expect.any(String),
    });
  }
  expect(bodyOf(byEvent["portal.created"]!)).toMatchObject({ tags: [], is_template: false, created_by: expect.any(String) });
  expect(bodyOf(byEvent["portal.workflow_changed"]!)).toMatchObject({
    workflow_state_id: target.id,
    workflow_state_name: target.name,
    previous_workflow_state_name: null,
  });
  expect(bodyOf(byEvent["file.uploaded"]!)).toMatchObject({
    file_id: slot.file_id,
    name: "notes.txt",
    extension: "txt",
    size: bytes.length,
    content_type: "text/plain",
    uploaded_by_email: "admin@demo.test",
  });
  expect(bodyOf(byEvent["task.created"]!)).toMatchObject({ task_id: taskId, title: `Send the ledger ${tag}`, action_type: "General", status: "Open" });
  expect(bodyOf(byEvent["task.completed"]!)).toMatchObject({ task_id: taskId, status: "Done", attached_files: [] });
  expect(bodyOf(byEvent["guest.invited"]!)).toMatchObject({ guest_email: guestEmail, guest_name: "Dana Durable" });

  // Through the executor: each event handed over once, with its delivery's start (the relay makes
  // the deliveries at hand-off), and delivered by a run of its own started once.
  const s = await state();
  for (const name of produced) {
    const eventId = bodyOf(byEvent[name]!).event_id;
    expect(
      s.events.filter((e) => e.id === eventId && !e.duplicate),
      name,
    ).toHaveLength(1);
  }
  for (const req of r.requests) {
    const deliveryId = String(req.headers["x-webhook-delivery-id"]);
    const run = await deliveryRun(deliveryId);
    expect(run.status).toBe("Completed");
    expect(run.steps.map((st) => [st.name, st.op])).toEqual([["attempt-1", "StepRun"]]);
    expect(runsOf(await state(), "webhook-delivery").filter((x) => (x.event.data as { delivery_id?: string }).delivery_id === deliveryId)).toHaveLength(1);
  }
  expect(r.requests).toHaveLength(produced.length);
  expect(await webhook(request, hook.webhook_id)).toMatchObject({ success_count: produced.length, failure_count: 0 });

  // The invitation, queued with the change and sent by send-email through SMTP_URL.
  const mail = await until("the invitation at the SMTP sink", (st) => st.mail.find((m) => m.to.includes(guestEmail)));
  expect(mail.data).toMatch(/\/invite\/[A-Za-z0-9_-]+/);
  expect(runsOf(await state(), "send-email").some((run) => run.status === "Completed")).toBe(true);
  await request.delete(`/api/v1/webhooks/${hook.webhook_id}`, { headers });
});

test("500, 500, 200: three attempts with one delivery id and a fresh timestamp each; always failing: four, counted once", async ({ request }) => {
  const flaky = await receiver();
  flaky.reply(500, 500);
  const down = await receiver();
  down.setFallback(500);
  const flakyHook = await createWebhook(request, flaky.url, ["portal.created"]);
  const downHook = await createWebhook(request, down.url, ["portal.created"]);

  await createPortal(request, `Retries ${tag}`);
  await expect.poll(() => flaky.requests.length, { timeout: 20_000 }).toBe(3);
  await expect.poll(() => down.requests.length, { timeout: 20_000 }).toBe(4);

  const ids = new Set(flaky.requests.map((q) => q.headers["x-webhook-delivery-id"]));
  expect(ids.size).toBe(1);
  const stamps = flaky.requests.map((q) => Date.parse(bodyOf(q).timestamp as string));
  expect(stamps[1]).toBeGreaterThan(stamps[0]!);
  expect(stamps[2]).toBeGreaterThan(stamps[1]!);
  expect(new Set(flaky.requests.map((q) => bodyOf(q).event_id)).size).toBe(1);
  expect(flaky.requests.every((q) => signatureVerifies(q, flakyHook.secret))).toBe(true);

  const flakyRun = await deliveryRun(String([...ids][0]));
  expect(flakyRun.steps.map((st) => st.name)).toEqual(["attempt-1", "sleep-1", "attempt-2", "sleep-2", "attempt-3"]);
  const downRun = await deliveryRun(String(down.requests[0]!.headers["x-webhook-delivery-id"]));
  expect(downRun.output).toMatchObject({ outcome: "failed" });
  expect(downRun.steps.filter((st) => st.name.startsWith("attempt-"))).toHaveLength(4);

  expect(await webhook(request, flakyHook.webhook_id)).toMatchObject({ success_count: 1, failure_count: 0 });
  expect(await webhook(request, downHook.webhook_id)).toMatchObject({ success_count: 0, failure_count: 1 });
  const [log] = await deliveries(request, downHook.webhook_id);
  expect(log?.attempts.map((a) => a.status_code)).toEqual([500, 500, 500, 500]);
  expect(log?.status).toBe("failed");
  // Nothing after the fourth.
  expect(down.requests).toHaveLength(4);
  for (const id of [flakyHook.webhook_id, downHook.webhook_id]) await request.delete(`/api/v1/webhooks/${id}`, { headers });
});

test("disabling the webhook between attempts stops the remaining ones", async ({ request, playwright }) => {
  // A receiver that, while answering the first attempt, has the webhook disabled, then fails it.
  const api = await playwright.request.newContext({ baseURL: test.info().project.use.baseURL });
  let hookId = "";
  const seen: string[] = [];
  const server = createServer((req, res) => {
    seen.push(String(req.headers["x-webhook-delivery-id"]));
    void api.patch(`/api/v1/webhooks/${hookId}`, { headers, data: { enabled: false } }).then(() => res.writeHead(500).end("down"));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const hook = await createWebhook(request, `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, ["portal.created"]);
  hookId = hook.webhook_id;

  await createPortal(request, `Disable ${tag}`);
  await expect.poll(() => seen.length, { timeout: 20_000 }).toBe(1);
  const run = await deliveryRun(seen[0]!);
  expect(run.status).toBe("Completed");
  expect(run.steps.filter((st) => st.name.startsWith("attempt-"))).toHaveLength(2);
  expect(seen).toHaveLength(1);
  const [log] = await deliveries(request, hook.webhook_id);
  expect(log?.attempts).toHaveLength(1);
  await new Promise<void>((resolve) => server.close(() => resolve()));
  await api.dispose();
  await request.delete(`/api/v1/webhooks/${hook.webhook_id}`, { headers });
});

test("events written while the executor is down arrive exactly once when it is back", async ({ request }) => {
  const r = await receiver();
  const hook = await createWebhook(request, r.url, ["portal.created"]);
  await stopExecutor();
  const portal = await createPortal(request, `Outage ${tag}`);
  // The relay cannot hand it over: nothing arrives, and the executor has not seen it.
  await new Promise((resolve) => setTimeout(resolve, 2_500));
  expect(r.requests).toHaveLength(0);
  await startExecutor();

  await expect.poll(() => r.requests.length, { timeout: 30_000 }).toBe(1);
  const eventId = bodyOf(r.requests[0]!).event_id as string;
  expect(bodyOf(r.requests[0]!)).toMatchObject({ event: "portal.created", portal_id: portal.id });
  await deliveryRun(String(r.requests[0]!.headers["x-webhook-delivery-id"]));
  // Let a repeated hand-over (if any) land before counting.
  await new Promise((resolve) => setTimeout(resolve, 1_500));
  const s = await state();
  expect(s.events.filter((e) => e.id === eventId && !e.duplicate)).toHaveLength(1);
  const deliveryId = String(r.requests[0]!.headers["x-webhook-delivery-id"]);
  expect(runsOf(s, "webhook-delivery").filter((run) => (run.event.data as { delivery_id?: string }).delivery_id === deliveryId)).toHaveLength(1);
  expect(r.requests).toHaveLength(1);
  await request.delete(`/api/v1/webhooks/${hook.webhook_id}`, { headers });
});

test("a task due in 20 (time-scaled) days gets its five reminders, and none after it is completed", async ({ request }) => {
  const portals = (await (await request.get("/api/v1/portals", { headers })).json()) as Array<{ id: string; name: string }>;
  const acme = portals.find((p) => p.name.startsWith("Acme Ltd"))!;
  const due = new Date(Date.now() + 20 * 86_400_000).toISOString();
  // 27 days of reminder schedule in about 9 seconds (2.3e9 ms × 4e-6).
  await setTimeScale(4e-6);
  const titles = [`Reminded ${tag}`, `Completed early ${tag}`];
  const ids: string[] = [];
  for (const title of titles) {
    const res = await request.post(`/api/v1/portals/${acme.id}/tasks`, { headers, data: { title, due_date: due, send_reminder: true } });
    expect(res.status(), await res.text()).toBe(201);
    ids.push(((await res.json()) as { task_id: string }).task_id);
  }
  const remindersOf = (s: { mail: Array<{ data: string; to: string[] }> }, title: string) =>
    s.mail.filter((m) => subjectOf(m.data).startsWith(`Reminder: "${title}"`));

  // The second task gets its first reminder, then is completed.
  await until("the first reminder of the second task", (s) => (remindersOf(s, titles[1]!).length >= 1 ? true : undefined));
  expect((await request.post(`/api/v1/tasks/${ids[1]}/complete`, { headers })).status()).toBe(200);
  const atCompletion = remindersOf(await state(), titles[1]!).length;

  const five = await until(
    "five reminders of the first task",
    (s) => (remindersOf(s, titles[0]!).length >= 5 ? remindersOf(s, titles[0]!) : undefined),
    40_000,
  );
  expect(five.map((m) => subjectOf(m.data))).toEqual([
    `Reminder: "${titles[0]}" is due in 14 days`,
    `Reminder: "${titles[0]}" is due in 7 days`,
    `Reminder: "${titles[0]}" is due in 3 days`,
    `Reminder: "${titles[0]}" is due today`,
    `Reminder: "${titles[0]}" was due 7 days ago`,
  ]);
  expect(five.every((m) => m.to.includes("guest@demo.test"))).toBe(true);

  const s = await state();
  const runs = runsOf(s, "task-reminders");
  const first = runs.find((run) => (run.event.data as { task_id: string }).task_id === ids[0] && run.status === "Completed");
  expect(first?.output).toEqual({ sent: [-14, -7, -3, 0, 7], stopped: null });
  // The completed task: its run was cancelled by the completion's task.reminders_changed, and
  // nothing arrived after the completion (the schedule's last point is past by now).
  const second = runs.filter((run) => (run.event.data as { task_id: string }).task_id === ids[1]);
  expect(second.map((run) => run.status)).toContain("Cancelled");
  expect(second.every((run) => ended(run))).toBe(true);
  expect(remindersOf(s, titles[1]!)).toHaveLength(atCompletion);
  expect(atCompletion).toBe(1);
});
