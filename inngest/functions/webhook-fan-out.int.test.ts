import { randomUUID } from "node:crypto";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { webhookFanOut } from "@/inngest/functions/webhook-fan-out";
import { db } from "@/lib/db";
import { resetEnvForTests } from "@/lib/env";
import { dispatchPendingEvents } from "@/lib/events/dispatch-pending-events";
import { recordEvent } from "@/lib/events/record-event";
import { startInngestReceiver, type InngestReceiver } from "@/lib/events/test-support/inngest-receiver";
import { updateWebhook } from "@/lib/webhooks/update-webhook";
import {
  addWebhook,
  createWebhookContext,
  guestInvited,
  recordTestEvent,
  relayedEvent,
  runDelivery,
  runFanOut,
  type DeliveryRequest,
} from "@/inngest/functions/test-support/webhook-fixtures";
import { bodyOf, receiversClosedAfterEach, verifySignature } from "@/lib/webhooks/test-support/webhook-receiver";

// Event → fan-out → deliveries, with a real loopback server standing in for Inngest's event API
// (it receives what the relay and step.sendEvent send) and real webhook receivers.

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

beforeEach(async () => {
  await inngestApi.listen();
  inngestApi.setRefusing(false);
});

afterAll(async () => {
  await inngestApi.close();
  process.env = savedEnv;
  resetEnvForTests();
});

/** The delivery requests step.sendEvent handed to Inngest for an organization's webhooks. */
function deliveryRequestsSent(webhookIds: string[]) {
  return inngestApi.events
    .filter((e) => e.name === "webhook/delivery.requested" && webhookIds.includes(e.data["webhook_id"] as string))
    .map((e) => ({ id: e.id, data: e.data as DeliveryRequest }));
}

describe("webhook-fan-out", () => {
  it("is triggered by each of the seven subscribable events, unless the relay found no subscribed webhook", () => {
    const config = webhookFanOut["getConfig"]({ baseUrl: new URL("https://app.test/api/inngest"), appPrefix: "client-portals" });
    expect(config[0]?.triggers).toEqual(
      ["portal.created", "portal.workflow_changed", "file.uploaded", "file.signed", "task.created", "task.completed", "guest.invited"].map((event) => ({
        event,
        expression: "event.data.routes.webhooks != false",
      })),
    );
  });

  it("makes one delivery per enabled subscribed webhook; each receiver verifies with its own secret", async () => {
    const ctx = await createWebhookContext();
    const [a, b, c, off, other] = await Promise.all([receiver(), receiver(), receiver(), receiver(), receiver()]);
    const hooks = [
      await addWebhook(ctx, a.url, ["guest.invited"]),
      await addWebhook(ctx, b.url),
      await addWebhook(ctx, c.url, ["task.created", "guest.invited"]),
    ];
    const disabled = await addWebhook(ctx, off.url, ["guest.invited"]);
    await updateWebhook({ viewer: ctx.viewer, webhookId: disabled.webhook_id, enabled: false });
    const unsubscribed = await addWebhook(ctx, other.url, ["task.created"]);
    const event = await recordTestEvent(ctx, "guest.invited", guestInvited());

    const { result } = await runFanOut(relayedEvent(event));

    const rows = await db.webhookDelivery.findMany({ where: { eventId: event.id } });
    expect(rows.map((d) => d.webhookId).sort()).toEqual(hooks.map((h) => h.webhook_id).sort());
    expect(rows.every((d) => d.status === "pending" && d.eventType === "guest.invited" && d.attemptCount === 0)).toBe(true);
    expect((result as { deliveries: string[] }).deliveries.sort()).toEqual(rows.map((d) => d.id).sort());

    const sent = deliveryRequestsSent([...hooks, disabled, unsubscribed].map((h) => h.webhook_id));
    expect(sent.map((s) => s.data.delivery_id).sort()).toEqual(rows.map((d) => d.id).sort());
    for (const s of sent) expect(s.id).toBe(`webhook-delivery-${s.data.delivery_id}-1`);

    for (const s of sent) await runDelivery(s.data);

    for (const [i, r] of [a, b, c].entries()) {
      expect(r.requests).toHaveLength(1);
      const [received] = r.requests;
      if (!received) throw new Error("nothing received");
      expect(verifySignature(hooks[i]!.secret, received)).toBe(true);
      for (const [j, other] of hooks.entries()) if (j !== i) expect(verifySignature(other.secret, received)).toBe(false);
      expect(bodyOf(received)).toMatchObject({ event: "guest.invited", event_id: event.id, org_id: ctx.org.id });
    }
    expect(new Set([a, b, c].map((r) => r.requests[0]?.headers["x-webhook-delivery-id"])).size).toBe(3);
    expect(off.connections).toBe(0);
    expect(other.connections).toBe(0);
  });

  it("makes the same deliveries when it runs twice for one event: no duplicate delivery ids", async () => {
    const ctx = await createWebhookContext();
    const r = await receiver();
    const hook = await addWebhook(ctx, r.url);
    const event = await recordTestEvent(ctx, "task.created", {
      task_id: randomUUID(),
      title: "Send the W-2",
      action_type: "General",
      due_date: null,
      status: "Open",
    });

    const first = await runFanOut(relayedEvent(event));
    const second = await runFanOut(relayedEvent(event));

    expect(await db.webhookDelivery.count({ where: { eventId: event.id } })).toBe(1);
    expect(second.result).toEqual(first.result);
    const sent = deliveryRequestsSent([hook.webhook_id]);
    // Both runs asked for the same run, under the same event id, which Inngest deduplicates.
    expect(sent).toHaveLength(2);
    expect(new Set(sent.map((s) => s.id)).size).toBe(1);

    // Once the delivery is under way, a late repeat of the fan-out does not start it again.
    await runDelivery(sent[0]!.data);
    expect((await runFanOut(relayedEvent(event))).result).toEqual({ deliveries: [] });
    expect(deliveryRequestsSent([hook.webhook_id])).toHaveLength(2);
    expect(r.requests).toHaveLength(1);
  });

  it("makes no delivery for an event whose transaction rolled back", async () => {
    const ctx = await createWebhookContext();
    const r = await receiver();
    const hook = await addWebhook(ctx, r.url);
    let rolledBackId = "";
    await expect(
      db.$transaction(async (tx) => {
        ({ id: rolledBackId } = await recordEvent(tx, { orgId: ctx.org.id, portalId: ctx.portal.id, type: "guest.invited", data: guestInvited() }));
        throw new Error("the change failed");
      }),
    ).rejects.toThrow("the change failed");

    expect(await dispatchPendingEvents({ orgId: ctx.org.id })).toEqual({ sent: 0, failed: 0 });
    expect(inngestApi.events.some((e) => e.id === rolledBackId)).toBe(false);
    // Even handed an event of that id, the fan-out finds nothing committed to deliver.
    const { result } = await runFanOut({
      id: rolledBackId,
      name: "guest.invited",
      data: { event_id: rolledBackId, org_id: ctx.org.id, portal_id: ctx.portal.id, ...guestInvited() },
    });
    expect(result).toEqual({ deliveries: [] });
    expect(await db.webhookDelivery.count({ where: { webhookId: hook.webhook_id } })).toBe(0);
    expect(deliveryRequestsSent([hook.webhook_id])).toEqual([]);
    expect(r.connections).toBe(0);
  });

  it("delivers events recorded while Inngest was unreachable once it is back, once each", async () => {
    const ctx = await createWebhookContext();
    const r = await receiver();
    const hook = await addWebhook(ctx, r.url, ["guest.invited"]);

    await inngestApi.pause();
    const events = [
      await recordTestEvent(ctx, "guest.invited", guestInvited({ guest_email: "one@example.com" })),
      await recordTestEvent(ctx, "guest.invited", guestInvited({ guest_email: "two@example.com" })),
    ];
    expect(await dispatchPendingEvents({ orgId: ctx.org.id })).toEqual({ sent: 0, failed: 2 });
    // Made with the hand-off that failed, started by the next one.
    expect(await db.webhookDelivery.count({ where: { webhookId: hook.webhook_id } })).toBe(2);
    expect(deliveryRequestsSent([hook.webhook_id])).toEqual([]);

    await inngestApi.listen();
    expect(await dispatchPendingEvents({ orgId: ctx.org.id })).toEqual({ sent: 2, failed: 0 });
    const handedOver = inngestApi.events.filter((e) => e.data["org_id"] === ctx.org.id);
    expect(handedOver.map((e) => e.id)).toEqual(events.map((e) => e.id));
    expect(deliveryRequestsSent([hook.webhook_id])).toHaveLength(2);

    // The fan-out run anyway for both (events handed over without their deliveries, one of them
    // twice as an engine retry would) finds the same deliveries and sends the same starts.
    for (const e of [...handedOver, handedOver[0]!]) await runFanOut({ id: e.id, name: e.name, data: { ...e.data, routes: undefined } });
    const sent = deliveryRequestsSent([hook.webhook_id]);
    expect(sent).toHaveLength(5);
    const runs = [...new Map(sent.map((s) => [s.id, s.data])).values()];
    expect(runs).toHaveLength(2);
    for (const data of runs) await runDelivery(data);

    expect(r.requests.map((q) => bodyOf(q)["guest_email"]).sort()).toEqual(["one@example.com", "two@example.com"]);
    const ids = r.requests.map((q) => q.headers["x-webhook-delivery-id"]);
    expect(new Set(ids).size).toBe(2);
    expect(await db.webhookDelivery.count({ where: { webhookId: hook.webhook_id } })).toBe(2);
    expect((await db.webhook.findUniqueOrThrow({ where: { id: hook.webhook_id } })).successCount).toBe(2);
  });

  it("leaves out webhooks created after the event was recorded", async () => {
    const ctx = await createWebhookContext();
    const event = await recordTestEvent(ctx, "guest.invited", guestInvited());
    const r = await receiver();
    await addWebhook(ctx, r.url);
    expect((await runFanOut(relayedEvent(event))).result).toEqual({ deliveries: [] });
  });
});
