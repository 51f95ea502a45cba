import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { buildOpenApiDocument } from "@/lib/api/openapi/document";
import { callRoute } from "@/test/routes/call-route";
import { db } from "@/lib/db";
import { resetEnvForTests } from "@/lib/env";
import { dispatchPendingEvents } from "@/lib/events/dispatch-pending-events";
import { startInngestReceiver, type InngestReceiver } from "@/lib/events/test-support/inngest-receiver";
import { createDeliveriesForEvent } from "@/lib/webhooks/fan-out";
import {
  addWebhook,
  createWebhookContext,
  deliveriesOf,
  guestInvited,
  recordTestEvent,
  runDelivery,
  type DeliveryRequest,
  type WebhookContext,
} from "@/inngest/functions/test-support/webhook-fixtures";
import { receiversClosedAfterEach, verifySignature } from "@/lib/webhooks/test-support/webhook-receiver";
import { updateWebhook } from "@/lib/webhooks/update-webhook";
import { POST as REDELIVER } from "./[deliveryId]/redeliver/route";
import { GET } from "./route";

// The delivery log and redelivery (additions beyond 1.0.2), with a loopback stand-in for
// Inngest's event API receiving the redelivery's start event.

const savedEnv = { ...process.env };
let inngestApi: InngestReceiver;
const receiver = receiversClosedAfterEach(afterEach);

beforeAll(async () => {
  inngestApi = await startInngestReceiver();
  process.env.INNGEST_BASE_URL = inngestApi.url;
  process.env.INNGEST_DEV = "1";
  delete process.env.INNGEST_EVENT_KEY;
  process.env.OUTBOUND_ALLOW_PRIVATE = "true";
  resetEnvForTests();
});
afterEach(async () => {
  await inngestApi.listen();
});
afterAll(async () => {
  await inngestApi.close();
  process.env = savedEnv;
  resetEnvForTests();
});

type Delivery = {
  delivery_id: string;
  webhook_id: string;
  event: string;
  event_id: string;
  status: string;
  attempt_count: number;
  created_at: string;
  completed_at: string | null;
  attempts: {
    number: number;
    started_at: string;
    duration_ms: number;
    status_code: number | null;
    success: boolean;
    error: string | null;
    response_body: string | null;
  }[];
};

const list = (ctx: WebhookContext, webhookId: string, query = "") =>
  callRoute<Delivery[]>(GET, { path: `/api/v1/webhooks/${webhookId}/deliveries${query}`, token: ctx.token, params: { webhookId } });
const redeliver = (ctx: WebhookContext, webhookId: string, deliveryId: string) =>
  callRoute<Delivery>(REDELIVER, {
    method: "POST",
    path: `/api/v1/webhooks/${webhookId}/deliveries/${deliveryId}/redeliver`,
    token: ctx.token,
    params: { webhookId, deliveryId },
  });

/** A webhook on a fresh receiver and one delivered (or failed) guest.invited event. */
async function deliveredOnce(replies: number[]) {
  const ctx = await createWebhookContext();
  const r = await receiver();
  r.reply(...replies);
  const hook = await addWebhook(ctx, r.url);
  const event = await recordTestEvent(ctx, "guest.invited", guestInvited());
  await createDeliveriesForEvent({ orgId: ctx.org.id, eventId: event.id });
  const [request] = await deliveriesOf(event.id);
  await runDelivery(request!);
  return { ctx, r, hook, event, request: request! };
}

describe("GET /api/v1/webhooks/{webhookId}/deliveries", () => {
  it("lists deliveries with their attempts", async () => {
    const { ctx, hook, event, request } = await deliveredOnce([500, 200]);

    const res = await list(ctx, hook.webhook_id);

    expect(res.status).toBe(200);
    expect(res.json).toEqual([
      {
        delivery_id: request.delivery_id,
        webhook_id: hook.webhook_id,
        event: "guest.invited",
        event_id: event.id,
        status: "succeeded",
        attempt_count: 2,
        created_at: expect.any(String),
        completed_at: expect.any(String),
        attempts: [
          {
            number: 1,
            started_at: expect.any(String),
            duration_ms: expect.any(Number),
            status_code: 500,
            success: false,
            error: "HTTP 500",
            response_body: "answered 500",
          },
          {
            number: 2,
            started_at: expect.any(String),
            duration_ms: expect.any(Number),
            status_code: 200,
            success: true,
            error: null,
            response_body: "answered 200",
          },
        ],
      },
    ]);
  });

  it("filters by status, pages, and is 404 for another organization's webhook", async () => {
    const { ctx, hook } = await deliveredOnce([500, 500, 500, 500]);
    const other = await createWebhookContext();
    const test = await db.webhookDelivery.create({ data: { webhookId: hook.webhook_id, eventType: "webhook.test", status: "succeeded" } });

    expect((await list(ctx, hook.webhook_id, "?status=failed")).json.map((d) => d.status)).toEqual(["failed"]);
    expect((await list(ctx, hook.webhook_id, "?status=succeeded")).json.map((d) => [d.delivery_id, d.event, d.event_id])).toEqual([
      [test.id, "webhook.test", test.id],
    ]);
    expect((await list(ctx, hook.webhook_id, "?status=nope")).status).toBe(400);
    const page = await list(ctx, hook.webhook_id, "?limit=1");
    expect(page.json).toHaveLength(1);
    expect(page.headers.get("link")).toContain('rel="next"');

    expect((await list(other, hook.webhook_id)).status).toBe(404);
    expect((await list(ctx, "nope")).status).toBe(404);
  });
});

describe("POST /api/v1/webhooks/{webhookId}/deliveries/{deliveryId}/redeliver", () => {
  it("starts a new attempt series of a failed delivery under the same delivery id", async () => {
    const { ctx, r, hook, request } = await deliveredOnce([500, 500, 500, 500]);

    const res = await redeliver(ctx, hook.webhook_id, request.delivery_id);

    expect(res.status).toBe(202);
    expect(res.json).toMatchObject({ delivery_id: request.delivery_id, status: "pending", attempt_count: 4, completed_at: null });
    // The start event leaves through the outbox: the relay's run (no relay runs in tests).
    await dispatchPendingEvents({ orgId: ctx.org.id });
    const started = inngestApi.events.filter((e) => e.name === "webhook/delivery.requested" && e.data["delivery_id"] === request.delivery_id);
    expect(started).toEqual([
      expect.objectContaining({
        id: `webhook-delivery-${request.delivery_id}-5`,
        data: { delivery_id: request.delivery_id, webhook_id: hook.webhook_id, first_attempt: 5 },
      }),
    ]);
    expect(await db.auditLog.count({ where: { orgId: ctx.org.id, action: "webhook_delivery.redelivered", targetId: request.delivery_id } })).toBe(1);

    // While it runs, a second redelivery is refused.
    expect((await redeliver(ctx, hook.webhook_id, request.delivery_id)).status).toBe(409);

    r.reply(200);
    const { result } = await runDelivery(started[0]!.data as DeliveryRequest);
    expect(result).toMatchObject({ outcome: "succeeded", attempt: 5 });
    expect(r.requests).toHaveLength(5);
    expect(new Set(r.requests.map((q) => q.headers["x-webhook-delivery-id"]))).toEqual(new Set([request.delivery_id]));
    expect(verifySignature(hook.secret, r.requests[4]!)).toBe(true);

    const [after] = (await list(ctx, hook.webhook_id)).json;
    expect(after).toMatchObject({ status: "succeeded", attempt_count: 5 });
    expect(after?.attempts.map((a) => a.number)).toEqual([1, 2, 3, 4, 5]);
    const row = await db.webhook.findUniqueOrThrow({ where: { id: hook.webhook_id } });
    expect([row.successCount, row.failureCount]).toEqual([1, 1]);
  });

  it("is 409 while the webhook is disabled, 404 for unknown or foreign deliveries", async () => {
    const { ctx, hook, request } = await deliveredOnce([200]);
    const other = await createWebhookContext();
    await updateWebhook({ viewer: ctx.viewer, webhookId: hook.webhook_id, enabled: false });
    expect((await redeliver(ctx, hook.webhook_id, request.delivery_id)).status).toBe(409);
    await updateWebhook({ viewer: ctx.viewer, webhookId: hook.webhook_id, enabled: true });

    expect((await redeliver(other, hook.webhook_id, request.delivery_id)).status).toBe(404);
    expect((await redeliver(ctx, hook.webhook_id, crypto.randomUUID())).status).toBe(404);
    const otherHook = await addWebhook(ctx, "http://127.0.0.1:9/other");
    expect((await redeliver(ctx, otherHook.webhook_id, request.delivery_id)).status).toBe(404);
    expect((await db.webhookDelivery.findUniqueOrThrow({ where: { id: request.delivery_id } })).status).toBe("succeeded");
  });

  it("is recorded while the job engine cannot be reached; its start event leaves the outbox once it is back", async () => {
    const { ctx, r, hook, request } = await deliveredOnce([500, 500, 500, 500]);
    await dispatchPendingEvents({ orgId: ctx.org.id }); // the guest.invited event behind the delivery
    await inngestApi.pause();
    const res = await redeliver(ctx, hook.webhook_id, request.delivery_id);
    expect(res.status).toBe(202);
    expect(await db.webhookDelivery.findUniqueOrThrow({ where: { id: request.delivery_id } })).toMatchObject({
      status: "pending",
      completedAt: null,
      attemptCount: 4,
    });
    expect(await dispatchPendingEvents({ orgId: ctx.org.id })).toEqual({ sent: 0, failed: 1 });
    await inngestApi.listen();
    expect(await dispatchPendingEvents({ orgId: ctx.org.id })).toEqual({ sent: 1, failed: 0 });
    const started = inngestApi.events.filter((e) => e.name === "webhook/delivery.requested" && e.data["delivery_id"] === request.delivery_id);
    expect(started.map((e) => e.id)).toEqual([`webhook-delivery-${request.delivery_id}-5`]);
    r.reply(200);
    expect((await runDelivery(started[0]!.data as DeliveryRequest)).result).toMatchObject({ outcome: "succeeded", attempt: 5 });
  });

  // A crash between the redelivery's commit and its hand-off to the job engine must not leave the
  // delivery pending with no run behind it: the hand-off is the relay's, so a process that died
  // right after the commit (no relay ran) is made good by the relay of the next one.
  it("interrupted between its commit and its hand-off, is delivered after a restart", async () => {
    const { ctx, r, hook, request } = await deliveredOnce([500, 500, 500, 500]);
    await dispatchPendingEvents({ orgId: ctx.org.id }); // the guest.invited event behind the delivery
    const before = inngestApi.events.length;
    expect((await redeliver(ctx, hook.webhook_id, request.delivery_id)).status).toBe(202);
    // The "crash": nothing was handed over, the row waits in the outbox with the committed change.
    expect(inngestApi.events.length).toBe(before);
    const pending = await db.event.findMany({ where: { orgId: ctx.org.id, type: "webhook/delivery.requested", dispatchedAt: null } });
    expect(pending.map((e) => e.data)).toEqual([{ delivery_id: request.delivery_id, webhook_id: hook.webhook_id, first_attempt: 5 }]);
    expect(await db.auditLog.count({ where: { orgId: ctx.org.id, action: "webhook_delivery.redelivered", targetId: request.delivery_id } })).toBe(1);

    // The restart: the relay runs again.
    expect(await dispatchPendingEvents({ orgId: ctx.org.id })).toEqual({ sent: 1, failed: 0 });
    const [started] = inngestApi.events.slice(before);
    expect(started).toMatchObject({ name: "webhook/delivery.requested", id: `webhook-delivery-${request.delivery_id}-5` });
    r.reply(200);
    expect((await runDelivery(started!.data as DeliveryRequest)).result).toMatchObject({ outcome: "succeeded", attempt: 5 });
    expect(await db.webhookDelivery.findUniqueOrThrow({ where: { id: request.delivery_id } })).toMatchObject({ status: "succeeded", attemptCount: 5 });
    expect(r.requests).toHaveLength(5);
  });
});

describe("OpenAPI", () => {
  it("documents the seven webhook operations, the delivery log and redelivery as additions beyond 1.0.2", () => {
    const doc = buildOpenApiDocument({ apiUrl: "https://api.test", appUrl: "https://app.test" });
    expect(Object.keys(doc.paths["/api/v1/webhooks"] ?? {}).sort()).toEqual(["get", "post"]);
    expect(Object.keys(doc.paths["/api/v1/webhooks/{webhookId}"] ?? {}).sort()).toEqual(["delete", "patch"]);
    expect(doc.paths["/api/v1/webhooks/{webhookId}/test"]?.["post"]?.["x-required-scope"]).toBe("webhook:manage");
    for (const [path, method] of [
      ["/api/v1/webhooks/{webhookId}/deliveries", "get"],
      ["/api/v1/webhooks/{webhookId}/deliveries/{deliveryId}/redeliver", "post"],
    ] as const) {
      const op = doc.paths[path]?.[method];
      expect(op?.description).toContain("beyond API 1.0.2");
      expect(op?.["x-required-scope"]).toBe("webhook:manage");
    }
    expect(doc.components.schemas["Webhook"]).toBeDefined();
  });
});
