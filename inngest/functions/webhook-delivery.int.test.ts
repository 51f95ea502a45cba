import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { webhookDelivery } from "@/inngest/functions/webhook-delivery";
import { db } from "@/lib/db";
import { resetEnvForTests } from "@/lib/env";
import { attemptDeliveries, attemptDelivery } from "@/lib/webhooks/attempt-delivery";
import { deleteWebhook } from "@/lib/webhooks/delete-webhook";
import { createDeliveriesForEvent } from "@/lib/webhooks/fan-out";
import {
  addWebhook,
  createWebhookContext,
  deliveriesOf,
  type DeliveryRequest,
  guestInvited,
  recordTestEvent,
  runDeliveries,
  runDelivery,
} from "@/inngest/functions/test-support/webhook-fixtures";

import { bodyOf, receiversClosedAfterEach, verifySignature } from "@/lib/webhooks/test-support/webhook-receiver";
import { updateWebhook } from "@/lib/webhooks/update-webhook";

// The delivery function driven by @inngest/test: sleeps mocked (they return at once), attempts
// real, against receivers on loopback (OUTBOUND_ALLOW_PRIVATE=true lets them be reached over http).

const savedEnv = { ...process.env };
const receiver = receiversClosedAfterEach(afterEach);

beforeAll(() => {
  process.env.OUTBOUND_ALLOW_PRIVATE = "true";
  delete process.env.WEBHOOK_RETRY_BASE_SECONDS;
  resetEnvForTests();
});

afterAll(() => {
  process.env = savedEnv;
  resetEnvForTests();
});

/** An organization with one webhook on a fresh receiver and one recorded guest.invited event. */
async function oneDelivery(data = guestInvited()) {
  const ctx = await createWebhookContext();
  const r = await receiver();
  const webhook = await addWebhook(ctx, r.url);
  const event = await recordTestEvent(ctx, "guest.invited", data);
  await createDeliveriesForEvent({ orgId: ctx.org.id, eventId: event.id });
  const [request] = await deliveriesOf(event.id);
  if (!request) throw new Error("no delivery made");
  return { ctx, r, webhook, event, request };
}

async function deliveryRow(id: string) {
  return db.webhookDelivery.findUnique({ where: { id }, include: { attempts: { orderBy: { number: "asc" } } } });
}

async function counters(webhookId: string) {
  const w = await db.webhook.findUniqueOrThrow({ where: { id: webhookId } });
  return { success: w.successCount, failure: w.failureCount };
}

function sleepCalls(ctx: { step: { sleep: { mock: { calls: unknown[][] } } } }) {
  return ctx.step.sleep.mock.calls.map((c) => [c[0], c[1]]);
}

describe("webhook-delivery", () => {
  it("gathers the delivery starts of one webhook into runs of up to 50, at most 2 runs at a time per webhook", () => {
    const config = webhookDelivery["getConfig"]({ baseUrl: new URL("https://app.test/api/inngest"), appPrefix: "client-portals" });
    expect(config[0]).toMatchObject({
      id: "client-portals-webhook-delivery",
      triggers: [{ event: "webhook/delivery.requested" }],
      batchEvents: { maxSize: 50, timeout: "1s", key: "event.data.webhook_id" },
      concurrency: { key: "event.data.webhook_id", limit: 2 },
    });
  });

  it("delivers a batch: each delivery its own id, signature, log and count; only the failed one retries", async () => {
    const ctx = await createWebhookContext();
    const r = await receiver();
    const webhook = await addWebhook(ctx, r.url);
    const requests: DeliveryRequest[] = [];
    for (const email of ["a@example.test", "b@example.test", "c@example.test"]) {
      const event = await recordTestEvent(ctx, "guest.invited", guestInvited({ guest_email: email }));
      await createDeliveriesForEvent({ orgId: ctx.org.id, eventId: event.id });
      requests.push(...(await deliveriesOf(event.id)));
    }
    // The first request to arrive fails; the others succeed.
    r.reply(500);

    const { result, ctx: run } = await runDeliveries(requests);

    expect(r.requests).toHaveLength(4);
    expect(new Set(r.requests.map((q) => q.headers["x-webhook-delivery-id"]))).toEqual(new Set(requests.map((q) => q.delivery_id)));
    for (const q of r.requests) expect(verifySignature(webhook.secret, q)).toBe(true);
    expect(sleepCalls(run)).toEqual([["sleep-1", "30s"]]);
    expect(result).toMatchObject({ outcome: "succeeded" });
    const retried = String(r.requests[0]!.headers["x-webhook-delivery-id"]);
    expect((result as { deliveries: Array<{ delivery_id: string; attempt: number }> }).deliveries.map((d) => [d.delivery_id, d.attempt]).sort()).toEqual(
      requests.map((q) => [q.delivery_id, q.delivery_id === retried ? 2 : 1]).sort(),
    );
    for (const q of requests) {
      const row = await deliveryRow(q.delivery_id);
      expect(row?.status).toBe("succeeded");
      expect(row?.attempts.map((a) => a.statusCode)).toEqual(q.delivery_id === retried ? [500, 200] : [200]);
    }
    expect(await counters(webhook.webhook_id)).toEqual({ success: 3, failure: 0 });
  });

  it("posts a flat, signed body once and counts one success", async () => {
    const { ctx, r, webhook, event, request } = await oneDelivery();
    await db.externalSystemId.create({ data: { orgId: ctx.org.id, portalId: ctx.portal.id, system: "Partner", systemKey: "partner", value: "123456" } });
    const before = Date.now();

    const { result } = await runDelivery(request);

    expect(result).toEqual({ outcome: "succeeded", attempt: 1, statusCode: 200, error: null });
    expect(r.requests).toHaveLength(1);
    const [received] = r.requests;
    if (!received) throw new Error("nothing received");
    expect(received.method).toBe("POST");
    expect(received.path).toBe("/hook");
    expect(received.headers["content-type"]).toBe("application/json");
    expect(received.headers["x-webhook-delivery-id"]).toBe(request.delivery_id);
    expect(received.headers["x-webhook-event"]).toBe("guest.invited");
    expect(received.headers["x-webhook-signature"]).toMatch(/^[0-9a-f]{64}$/);
    expect(verifySignature(webhook.secret, received)).toBe(true);
    expect(verifySignature(`${webhook.secret}x`, received)).toBe(false);

    const body = bodyOf(received);
    expect(body).toEqual({
      event: "guest.invited",
      event_id: event.id,
      org_id: ctx.org.id,
      portal_id: ctx.portal.id,
      portal_name: ctx.portal.name,
      external_system_ids: { Partner: "123456" },
      timestamp: expect.any(String),
      occurred_at: event.occurredAt.toISOString(),
      guest_email: "guest@example.com",
      guest_name: "Gina Guest",
      invited_by: null,
    });
    expect(Date.parse(body["timestamp"] as string)).toBeGreaterThanOrEqual(before - 5);
    expect(Object.keys(body).slice(0, 8)).toEqual([
      "event",
      "event_id",
      "org_id",
      "portal_id",
      "portal_name",
      "external_system_ids",
      "timestamp",
      "occurred_at",
    ]);

    const row = await deliveryRow(request.delivery_id);
    expect(row).toMatchObject({ status: "succeeded", attemptCount: 1, completedAt: expect.any(Date) });
    expect(row?.attempts).toEqual([expect.objectContaining({ number: 1, success: true, statusCode: 200, error: null, responseBody: "answered 200" })]);
    expect(row?.attempts[0]?.durationMs).toBeGreaterThanOrEqual(0);
    expect(await counters(webhook.webhook_id)).toEqual({ success: 1, failure: 0 });
  });

  it("sends {} as external_system_ids when the portal has none", async () => {
    const { r, request } = await oneDelivery();
    await runDelivery(request);
    expect(bodyOf(r.requests[0]!)["external_system_ids"]).toEqual({});
  });

  it("retries after 500, 500 and succeeds on the third attempt, with one delivery id throughout", async () => {
    const { r, webhook, request } = await oneDelivery();
    r.reply(500, 500, 200);

    const { result, ctx } = await runDelivery(request);

    expect(result).toMatchObject({ outcome: "succeeded", attempt: 3 });
    expect(r.requests).toHaveLength(3);
    expect(new Set(r.requests.map((q) => q.headers["x-webhook-delivery-id"]))).toEqual(new Set([request.delivery_id]));
    for (const q of r.requests) expect(verifySignature(webhook.secret, q)).toBe(true);
    expect(sleepCalls(ctx)).toEqual([
      ["sleep-1", "30s"],
      ["sleep-2", "120s"],
    ]);

    const row = await deliveryRow(request.delivery_id);
    expect(row?.status).toBe("succeeded");
    expect(row?.attemptCount).toBe(3);
    expect(row?.attempts.map((a) => [a.number, a.statusCode, a.success, a.error])).toEqual([
      [1, 500, false, "HTTP 500"],
      [2, 500, false, "HTTP 500"],
      [3, 200, true, null],
    ]);
    expect(await counters(webhook.webhook_id)).toEqual({ success: 1, failure: 0 });
  });

  it("gives up after four attempts of 500 (30 s, 2 min, 8 min apart) and counts one failure", async () => {
    const { r, webhook, request } = await oneDelivery();
    r.setFallback(500);

    const { result, ctx } = await runDelivery(request);

    expect(result).toEqual({ outcome: "failed", attempt: 4, statusCode: 500, error: "HTTP 500" });
    expect(r.requests).toHaveLength(4);
    expect(new Set(r.requests.map((q) => q.headers["x-webhook-delivery-id"])).size).toBe(1);
    expect(sleepCalls(ctx)).toEqual([
      ["sleep-1", "30s"],
      ["sleep-2", "120s"],
      ["sleep-3", "480s"],
    ]);
    const row = await deliveryRow(request.delivery_id);
    expect(row).toMatchObject({ status: "failed", attemptCount: 4 });
    expect(row?.attempts.map((a) => a.number)).toEqual([1, 2, 3, 4]);
    expect(row?.attempts.every((a) => a.responseBody === "answered 500")).toBe(true);
    expect(await counters(webhook.webhook_id)).toEqual({ success: 0, failure: 1 });
  });

  it("rebuilds the body at each attempt: fresh timestamp, same occurred_at and event_id", async () => {
    const { r, request } = await oneDelivery();
    r.reply(500);
    await runDelivery(request, { 1: () => new Promise((resolve) => setTimeout(resolve, 20)) });
    const [first, second] = r.requests.map(bodyOf);
    expect(first?.["timestamp"]).not.toBe(second?.["timestamp"]);
    expect(first?.["occurred_at"]).toBe(second?.["occurred_at"]);
    expect(first?.["event_id"]).toBe(second?.["event_id"]);
  });

  it("counts a 302 as a failure and never follows it: the redirect target receives nothing", async () => {
    const { r, webhook, request } = await oneDelivery();
    const target = await receiver();
    r.setFallback({ redirect: target.url });

    const { result } = await runDelivery(request);

    expect(result).toMatchObject({ outcome: "failed", attempt: 4, statusCode: 302 });
    expect(r.requests).toHaveLength(4);
    expect(target.requests).toHaveLength(0);
    expect(target.connections).toBe(0);
    const row = await deliveryRow(request.delivery_id);
    expect(row?.attempts[0]).toMatchObject({ statusCode: 302, success: false, error: "redirect (HTTP 302) not followed" });
    expect(await counters(webhook.webhook_id)).toEqual({ success: 0, failure: 1 });
  });

  it("stops the remaining attempts when the webhook is disabled between attempts (not counted)", async () => {
    const { ctx, r, webhook, request } = await oneDelivery();
    r.setFallback(500);

    const { result } = await runDelivery(request, {
      1: () => updateWebhook({ viewer: ctx.viewer, webhookId: webhook.webhook_id, enabled: false }),
    });

    expect(result).toEqual({ outcome: "stopped", reason: "webhook_disabled" });
    expect(r.requests).toHaveLength(1);
    const row = await deliveryRow(request.delivery_id);
    expect(row).toMatchObject({ status: "failed", attemptCount: 1, completedAt: expect.any(Date) });
    expect(row?.attempts).toHaveLength(1);
    expect(await counters(webhook.webhook_id)).toEqual({ success: 0, failure: 0 });
  });

  it("stops the remaining attempts when the webhook is deleted between attempts", async () => {
    const { ctx, r, webhook, request } = await oneDelivery();
    r.setFallback(500);

    const { result } = await runDelivery(request, {
      2: () => deleteWebhook({ viewer: ctx.viewer, webhookId: webhook.webhook_id }),
    });

    expect(result).toEqual({ outcome: "stopped", reason: "gone" });
    expect(r.requests).toHaveLength(2);
    expect(await deliveryRow(request.delivery_id)).toBeNull();
    expect(await db.webhook.findUnique({ where: { id: webhook.webhook_id } })).toBeNull();
  });

  it("stops as gone when the webhook is deleted while the request is out, leaving nothing behind", async () => {
    const { ctx, r, webhook, request } = await oneDelivery();
    r.setFallback("hang");

    const attempt = attemptDelivery({ deliveryId: request.delivery_id, number: 1, last: true, timeoutMs: 1_000 });
    for (let i = 0; i < 100 && r.requests.length === 0; i++) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(r.requests).toHaveLength(1);
    await deleteWebhook({ viewer: ctx.viewer, webhookId: webhook.webhook_id });

    expect(await attempt).toEqual({ outcome: "stopped", reason: "gone" });
    expect(await deliveryRow(request.delivery_id)).toBeNull();
    expect(await db.webhookAttempt.count({ where: { deliveryId: request.delivery_id } })).toBe(0);
  });

  it("signs non-ASCII payloads over their UTF-8 bytes, which arrive byte for byte", async () => {
    const name = "Zoë Ünïcødé — 日本語 🎉 \u2028";
    const { ctx, r, webhook, request } = await oneDelivery(guestInvited({ guest_name: name, guest_email: "zoe@example.com" }));
    await db.portal.update({ where: { id: ctx.portal.id }, data: { name: "Café Δelta" } });

    await runDelivery(request);

    const [received] = r.requests;
    if (!received) throw new Error("nothing received");
    expect(verifySignature(webhook.secret, received)).toBe(true);
    // Sent as raw UTF-8, not as \u escapes, and parsed back to the same text.
    expect(received.body.includes(Buffer.from("日本語 🎉", "utf8"))).toBe(true);
    expect(Number(received.headers["content-length"])).toBe(received.body.length);
    const body = bodyOf(received);
    expect(body["guest_name"]).toBe(name);
    expect(body["portal_name"]).toBe("Café Δelta");
    // Changing one byte breaks the signature.
    const tampered = { ...received, body: Buffer.from(received.body.toString("utf8").replace("Zoë", "Zoe"), "utf8") };
    expect(verifySignature(webhook.secret, tampered)).toBe(false);
  });

  it("cuts an attempt at its time limit when the receiver never answers", async () => {
    const { r, request } = await oneDelivery();
    r.setFallback("hang");

    const outcome = await attemptDelivery({ deliveryId: request.delivery_id, number: 1, last: false, timeoutMs: 300 });

    expect(outcome).toMatchObject({ outcome: "retry", statusCode: null, error: expect.stringMatching(/^timeout/) });
    const row = await deliveryRow(request.delivery_id);
    expect(row?.attempts[0]?.durationMs).toBeGreaterThanOrEqual(290);
    expect(row?.attempts[0]?.durationMs).toBeLessThan(2_000);
    expect(row?.status).toBe("pending");
  });

  it("gives each attempt of a delivery 10 s by default", async () => {
    const { ctx, r, webhook, request } = await oneDelivery();
    r.setFallback("hang");

    const { result } = await runDelivery(request, {
      1: () => updateWebhook({ viewer: ctx.viewer, webhookId: webhook.webhook_id, enabled: false }),
    });

    expect(result).toEqual({ outcome: "stopped", reason: "webhook_disabled" });
    expect(r.requests).toHaveLength(1);
    const [attempt] = (await deliveryRow(request.delivery_id))?.attempts ?? [];
    expect(attempt).toMatchObject({ success: false, statusCode: null, error: expect.stringMatching(/^timeout/) });
    expect(attempt?.durationMs).toBeGreaterThanOrEqual(10_000);
    expect(attempt?.durationMs).toBeLessThan(12_000);
  }, 30_000);

  it("logs a batch in one statement; a delivery deleted while out is gone, the others logged and counted", async () => {
    const kept = await oneDelivery();
    const dropped = await oneDelivery();
    dropped.r.setFallback("hang");
    const requests = [kept.request, dropped.request].map((q) => ({ deliveryId: q.delivery_id, number: 1, last: true }));

    const attempt = attemptDeliveries(requests, { timeoutMs: 1_000 });
    for (let i = 0; i < 100 && dropped.r.requests.length === 0; i++) await new Promise((resolve) => setTimeout(resolve, 20));
    await deleteWebhook({ viewer: dropped.ctx.viewer, webhookId: dropped.webhook.webhook_id });
    const outcomes = await attempt;

    expect(outcomes).toEqual([
      { outcome: "succeeded", attempt: 1, statusCode: 200, error: null },
      { outcome: "stopped", reason: "gone" },
    ]);
    expect((await deliveryRow(kept.request.delivery_id))?.attempts.map((a) => a.statusCode)).toEqual([200]);
    expect(await counters(kept.webhook.webhook_id)).toEqual({ success: 1, failure: 0 });
    expect(await db.webhookAttempt.count({ where: { deliveryId: dropped.request.delivery_id } })).toBe(0);
  });

  it("counts each delivery once when two runs attempt the same batch at the same time", async () => {
    const ctx = await createWebhookContext();
    const r = await receiver();
    const webhook = await addWebhook(ctx, r.url);
    const requests: Array<{ deliveryId: string; number: number; last: boolean }> = [];
    for (let i = 0; i < 6; i++) {
      const event = await recordTestEvent(ctx, "guest.invited", guestInvited({ guest_email: `g${i}@example.test` }));
      await createDeliveriesForEvent({ orgId: ctx.org.id, eventId: event.id });
      for (const q of await deliveriesOf(event.id)) requests.push({ deliveryId: q.delivery_id, number: 1, last: true });
    }
    r.setFallback(500);

    const runs = await Promise.allSettled([attemptDeliveries(requests), attemptDeliveries(requests)]);

    // Whichever logged an attempt first wins it; the other run fails on the duplicate and is retried.
    expect(runs.some((run) => run.status === "fulfilled" || /duplicate|unique/i.test(String(run.reason)))).toBe(true);
    const retried = await attemptDeliveries(requests);
    expect(retried.every((o) => o.outcome === "failed" || (o.outcome === "stopped" && o.reason === "not_pending"))).toBe(true);
    for (const q of requests) expect(await deliveryRow(q.deliveryId)).toMatchObject({ status: "failed", attemptCount: 1 });
    expect(await counters(webhook.webhook_id)).toEqual({ success: 0, failure: 6 });
  });

  it("does not send again when an attempt step runs again after it was logged", async () => {
    const { r, webhook, request } = await oneDelivery();
    r.setFallback(500);
    const first = await attemptDelivery({ deliveryId: request.delivery_id, number: 1, last: false });
    const again = await attemptDelivery({ deliveryId: request.delivery_id, number: 1, last: false });
    expect(again).toEqual(first);
    expect(r.requests).toHaveLength(1);

    // The last attempt, replayed after it ended the delivery: nothing is sent, nothing counted twice.
    await attemptDelivery({ deliveryId: request.delivery_id, number: 2, last: true });
    expect(await attemptDelivery({ deliveryId: request.delivery_id, number: 2, last: true })).toEqual({ outcome: "stopped", reason: "not_pending" });
    expect(r.requests).toHaveLength(2);
    expect(await counters(webhook.webhook_id)).toEqual({ success: 0, failure: 1 });
  });
});
