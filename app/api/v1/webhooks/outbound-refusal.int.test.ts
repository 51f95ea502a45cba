import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PATCH } from "@/app/api/v1/webhooks/[webhookId]/route";
import { POST as TEST } from "@/app/api/v1/webhooks/[webhookId]/test/route";
import { POST } from "@/app/api/v1/webhooks/route";
import { callRoute } from "@/test/routes/call-route";
import { db } from "@/lib/db";
import { resetEnvForTests } from "@/lib/env";
import type { OutboundPolicy, ResolvedAddress } from "@/lib/outbound";
import { attemptDelivery } from "@/lib/webhooks/attempt-delivery";
import { createWebhook } from "@/lib/webhooks/create-webhook";
import { createDeliveriesForEvent } from "@/lib/webhooks/fan-out";
import { createWebhookContext, deliveriesOf, guestInvited, recordTestEvent } from "@/inngest/functions/test-support/webhook-fixtures";
import { startWebhookReceiver, type WebhookReceiver } from "@/lib/webhooks/test-support/webhook-receiver";

// Without OUTBOUND_ALLOW_PRIVATE (D19, D24): every address of the matrix is refused by create,
// update and test send with a 400 naming the reason, and no connection is made (a loopback server
// counts them). lib/outbound's own tests cover the address rules in depth; these cover the API.

const savedEnv = { ...process.env };
let counting: WebhookReceiver;
let port: number;

beforeAll(async () => {
  delete process.env.OUTBOUND_ALLOW_PRIVATE;
  resetEnvForTests();
  counting = await startWebhookReceiver();
  port = Number(new URL(counting.url).port);
});

afterAll(async () => {
  await counting.close();
  process.env = savedEnv;
  resetEnvForTests();
});

/** [url, reason]: loopback ones point at the counting server's port. */
function matrix(): [string, string][] {
  const p = port;
  return [
    [`http://127.0.0.1:${p}/hook`, "scheme_not_allowed"],
    [`http://localhost:${p}/hook`, "scheme_not_allowed"],
    [`https://127.0.0.1:${p}/hook`, "private_address"],
    [`https://127.1:${p}/hook`, "private_address"],
    [`https://2130706433:${p}/hook`, "private_address"],
    [`https://0x7f000001:${p}/hook`, "private_address"],
    [`https://localhost:${p}/hook`, "private_address"],
    [`https://[::1]:${p}/hook`, "private_address"],
    [`https://[::ffff:127.0.0.1]:${p}/hook`, "private_address"],
    [`https://[::ffff:7f00:1]:${p}/hook`, "private_address"],
    [`https://[64:ff9b::7f00:1]:${p}/hook`, "private_address"],
    [`https://0.0.0.0:${p}/hook`, "private_address"],
    [`https://[::]:${p}/hook`, "private_address"],
    ["https://10.0.0.1/hook", "private_address"],
    ["https://172.16.0.1/hook", "private_address"],
    ["https://192.168.1.1/hook", "private_address"],
    ["https://169.254.169.254/latest/meta-data/", "private_address"],
    ["https://100.64.0.1/hook", "private_address"],
    ["https://224.0.0.1/hook", "private_address"],
    ["https://240.0.0.1/hook", "private_address"],
    ["https://255.255.255.255/hook", "private_address"],
    ["https://198.18.0.1/hook", "private_address"],
    ["https://192.0.2.1/hook", "private_address"],
    ["https://[fd00::1]/hook", "private_address"],
    ["https://[fe80::1]/hook", "private_address"],
    ["https://[ff02::1]/hook", "private_address"],
    ["https://[::ffff:10.0.0.1]/hook", "private_address"],
    ["https://[2001:db8::1]/hook", "private_address"],
  ];
}

/** A policy as in production (nothing private, https only) whose DNS answers what the test says. */
function policyResolving(address: string): OutboundPolicy {
  const family = address.includes(":") ? 6 : 4;
  return { allowPrivate: false, allowHttp: false, resolve: async (): Promise<ResolvedAddress[]> => [{ address, family }] };
}
const PUBLIC = "93.184.215.14";

describe("webhook URLs without OUTBOUND_ALLOW_PRIVATE", () => {
  it("refuses every matrix address on create, update and test send with 400 naming the reason, connecting to nothing", async () => {
    const ctx = await createWebhookContext();
    // Created while its host resolved to a public address (the check uses the injected DNS).
    const hook = await createWebhook({
      viewer: ctx.viewer,
      url: "https://hooks.public.test/in",
      events: ["guest.invited"],
      outboundPolicy: policyResolving(PUBLIC),
    });
    const webhookId = hook.webhook_id;

    for (const [url, reason] of matrix()) {
      const created = await callRoute(POST, { path: "/api/v1/webhooks", token: ctx.token, body: { url, events: ["guest.invited"] } });
      expect([url, created.status, created.json["error"]]).toEqual([url, 400, "invalid_request"]);
      expect(created.json["error_description"]).toContain(`url: ${reason}`);

      const updated = await callRoute(PATCH, {
        method: "PATCH",
        path: `/api/v1/webhooks/${webhookId}`,
        token: ctx.token,
        body: { url },
        params: { webhookId },
      });
      expect([url, updated.status]).toEqual([url, 400]);
      expect(updated.json["error_description"]).toContain(`url: ${reason}`);

      // A URL stored earlier (e.g. while OUTBOUND_ALLOW_PRIVATE was on) is checked again by a test send.
      await db.webhook.update({ where: { id: webhookId }, data: { url } });
      const tested = await callRoute(TEST, { method: "POST", path: `/api/v1/webhooks/${webhookId}/test`, token: ctx.token, params: { webhookId } });
      expect([url, tested.status]).toEqual([url, 400]);
      expect(tested.json["error_description"]).toContain(`url: ${reason}`);
    }

    expect(await db.webhook.count({ where: { orgId: ctx.org.id } })).toBe(1);
    expect(await db.webhookDelivery.count({ where: { webhookId } })).toBe(0);
    expect(counting.connections).toBe(0);
    expect(counting.requests).toEqual([]);
  });

  it("refuses at delivery a host that resolved to a public address at creation and to a private one now", async () => {
    const ctx = await createWebhookContext();
    const url = `https://rebinding.test:${port}/hook`;
    const hook = await createWebhook({ viewer: ctx.viewer, url, events: ["guest.invited"], outboundPolicy: policyResolving(PUBLIC) });
    const event = await recordTestEvent(ctx, "guest.invited", guestInvited());
    await createDeliveriesForEvent({ orgId: ctx.org.id, eventId: event.id });
    const [request] = await deliveriesOf(event.id);
    const before = counting.connections;

    const outcome = await attemptDelivery({ deliveryId: request!.delivery_id, number: 1, last: true, outboundPolicy: policyResolving("127.0.0.1") });

    expect(outcome).toMatchObject({ outcome: "failed", statusCode: null, error: expect.stringMatching(/^private_address/) });
    expect(counting.connections).toBe(before);
    const delivery = await db.webhookDelivery.findUniqueOrThrow({ where: { id: request!.delivery_id }, include: { attempts: true } });
    expect(delivery).toMatchObject({ status: "failed", attemptCount: 1 });
    expect(delivery.attempts[0]).toMatchObject({ success: false, statusCode: null, error: expect.stringMatching(/^private_address/) });
    expect((await db.webhook.findUniqueOrThrow({ where: { id: hook.webhook_id } })).failureCount).toBe(1);
  });
});
