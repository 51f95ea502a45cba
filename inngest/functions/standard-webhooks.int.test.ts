import { Webhook, WebhookVerificationError } from "standardwebhooks";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { POST as rotateSecret } from "@/app/api/v1/webhooks/[webhookId]/rotate-secret/route";
import { callRoute } from "@/test/routes/call-route";
import { db } from "@/lib/db";
import { resetEnvForTests } from "@/lib/env";
import { createDeliveriesForEvent } from "@/lib/webhooks/fan-out";
import { testWebhook } from "@/lib/webhooks/test-webhook";
import { addWebhook, createWebhookContext, deliveriesOf, guestInvited, recordTestEvent, runDelivery } from "@/inngest/functions/test-support/webhook-fixtures";
import { receiversClosedAfterEach, verifySignature, type ReceivedRequest } from "@/lib/webhooks/test-support/webhook-receiver";
import { createHmac } from "node:crypto";

// Standard Webhooks (standard-webhooks 1.0) on real deliveries to a loopback receiver, verified by
// the reference library `standardwebhooks` with the webhook's secret as raw key bytes, before,
// during and after a secret rotation; the contract's X-Webhook-Signature beside it, unchanged.

const savedEnv = { ...process.env };
const receiver = receiversClosedAfterEach(afterEach);

beforeAll(() => {
  process.env.OUTBOUND_ALLOW_PRIVATE = "true";
  resetEnvForTests();
});

afterAll(() => {
  process.env = savedEnv;
  resetEnvForTests();
});

/** Verifies as a receiver would with the reference library: the raw body and the three headers. */
function verifyStandard(secret: string, request: ReceivedRequest): unknown {
  const headers = Object.fromEntries(["webhook-id", "webhook-timestamp", "webhook-signature"].map((h) => [h, String(request.headers[h] ?? "")]));
  return new Webhook(secret, { format: "raw" }).verify(request.body.toString("utf8"), headers);
}

function standardFails(secret: string, request: ReceivedRequest): boolean {
  try {
    verifyStandard(secret, request);
    return false;
  } catch (e) {
    if (e instanceof WebhookVerificationError) return true;
    throw e;
  }
}

async function deliverOne(ctx: Awaited<ReturnType<typeof createWebhookContext>>) {
  const event = await recordTestEvent(ctx, "guest.invited", guestInvited());
  await createDeliveriesForEvent({ orgId: ctx.org.id, eventId: event.id });
  const [request] = await deliveriesOf(event.id);
  const { result } = await runDelivery(request!);
  expect(result).toMatchObject({ outcome: "succeeded" });
  return request!.delivery_id;
}

async function rotate(token: string, webhookId: string) {
  return callRoute<{ success: boolean; webhook_id: string; secret: string; previous_secret_expires_at: string; error?: string }>(rotateSecret, {
    method: "POST",
    path: `/api/v1/webhooks/${webhookId}/rotate-secret`,
    token,
    params: { webhookId },
  });
}

describe("Standard Webhooks signatures", () => {
  it("signs every delivery both ways; the reference library verifies it before, during and after a rotation", async () => {
    const ctx = await createWebhookContext();
    const r = await receiver();
    const webhook = await addWebhook(ctx, r.url, ["guest.invited"]);
    const original = webhook.secret;

    // Before: one signature of the only secret.
    const firstId = await deliverOne(ctx);
    const before = r.requests[0]!;
    expect(before.headers["webhook-id"]).toBe(firstId);
    expect(before.headers["webhook-id"]).toBe(before.headers["x-webhook-delivery-id"]);
    expect(before.headers["webhook-timestamp"]).toMatch(/^\d{10}$/);
    // The payload's timestamp is the same instant as webhook-timestamp (whole seconds).
    const body = JSON.parse(before.body.toString("utf8")) as { timestamp: string };
    expect(Math.floor(Date.parse(body.timestamp) / 1000)).toBe(Number(before.headers["webhook-timestamp"]));
    expect(String(before.headers["webhook-signature"])).toMatch(/^v1,[A-Za-z0-9+/]{43}=$/);
    expect(verifyStandard(original, before)).toMatchObject({ event: "guest.invited", event_id: expect.any(String) });
    expect(verifySignature(original, before)).toBe(true);
    expect(before.headers["x-webhook-signature-previous"]).toBeUndefined();
    // The contract's header is exactly the hex HMAC of the body with the secret, as before.
    expect(before.headers["x-webhook-signature"]).toBe(createHmac("sha256", original).update(before.body).digest("hex"));
    expect(standardFails(`${original}x`, before)).toBe(true);

    // Rotation through the API: a new secret, 24 hours of grace.
    const rotated = await rotate(ctx.token, webhook.webhook_id);
    expect(rotated.status).toBe(200);
    const fresh = rotated.json.secret;
    expect(fresh).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    expect(fresh).not.toBe(original);
    const hours = (Date.parse(rotated.json.previous_secret_expires_at) - Date.now()) / 3_600_000;
    expect(hours).toBeGreaterThan(23.9);
    expect(hours).toBeLessThanOrEqual(24);
    expect(await db.auditLog.count({ where: { orgId: ctx.org.id, action: "webhook.secret_rotated", targetId: webhook.webhook_id } })).toBe(1);

    // During: both signatures, current first; both secrets verify with the library.
    await deliverOne(ctx);
    const during = r.requests[1]!;
    expect(String(during.headers["webhook-signature"]).split(" ")).toHaveLength(2);
    expect(verifyStandard(fresh, during)).toMatchObject({ event: "guest.invited" });
    expect(verifyStandard(original, during)).toMatchObject({ event: "guest.invited" });
    expect(verifySignature(fresh, during)).toBe(true);
    expect(during.headers["x-webhook-signature-previous"]).toBe(createHmac("sha256", original).update(during.body).digest("hex"));

    // After the grace period: only the new secret.
    await db.webhook.update({ where: { id: webhook.webhook_id }, data: { previousSecretExpiresAt: new Date(Date.now() - 1000) } });
    await deliverOne(ctx);
    const after = r.requests[2]!;
    expect(String(after.headers["webhook-signature"]).split(" ")).toHaveLength(1);
    expect(verifyStandard(fresh, after)).toMatchObject({ event: "guest.invited" });
    expect(standardFails(original, after)).toBe(true);
    expect(verifySignature(fresh, after)).toBe(true);
    expect(verifySignature(original, after)).toBe(false);
    expect(after.headers["x-webhook-signature-previous"]).toBeUndefined();
  });

  it("keeps only the secret just replaced when rotating again during the grace period; test sends are signed too", async () => {
    const ctx = await createWebhookContext();
    const r = await receiver();
    const webhook = await addWebhook(ctx, r.url, ["guest.invited"]);
    const first = await rotate(ctx.token, webhook.webhook_id);
    const second = await rotate(ctx.token, webhook.webhook_id);
    expect([first.status, second.status]).toEqual([200, 200]);

    const sent = await testWebhook({ viewer: ctx.viewer, webhookId: webhook.webhook_id });
    expect(sent.success).toBe(true);
    const [request] = r.requests;
    expect(request!.headers["webhook-id"]).toBe(sent.delivery_id);
    expect(verifyStandard(second.json.secret, request!)).toMatchObject({ event: "webhook.test" });
    expect(verifyStandard(first.json.secret, request!)).toMatchObject({ event: "webhook.test" });
    expect(standardFails(webhook.secret, request!)).toBe(true);
  });

  it("rotates concurrently without a 500: each rotation replaces the one before it", async () => {
    const ctx = await createWebhookContext();
    const webhook = await addWebhook(ctx, (await receiver()).url, ["guest.invited"]);
    const answers = await Promise.all([1, 2, 3].map(() => rotate(ctx.token, webhook.webhook_id)));
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200]);
    expect(new Set(answers.map((a) => a.json.secret)).size).toBe(3);
    expect(await db.auditLog.count({ where: { orgId: ctx.org.id, action: "webhook.secret_rotated" } })).toBe(3);
  });

  it("is 404 for another organization's webhook, changing nothing", async () => {
    const ctx = await createWebhookContext();
    const other = await createWebhookContext();
    const webhook = await addWebhook(other, (await receiver()).url, ["guest.invited"]);
    const foreign = await rotate(ctx.token, webhook.webhook_id);
    expect([foreign.status, foreign.json.error]).toEqual([404, "not_found"]);
    const stored = await db.webhook.findUniqueOrThrow({ where: { id: webhook.webhook_id } });
    expect(stored.previousSecretEncrypted).toBeNull();
  });
});
