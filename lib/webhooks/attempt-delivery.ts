import { decrypt } from "@/lib/crypto";
import { db } from "@/lib/db";
import { Prisma } from "@/lib/generated/prisma/client";
import type { OutboundPolicy } from "@/lib/outbound";
import { finishDelivery } from "./finish-delivery";
import { buildPayload, TEST_EVENT } from "./payload";
import { sendWebhookRequest } from "./send";

export type AttemptOutcome =
  | { outcome: "succeeded" | "failed" | "retry"; attempt: number; statusCode: number | null; error: string | null }
  | {
      outcome: "stopped";
      /** Gone: the webhook (and so the delivery) was deleted. Not pending: another run finished it. */
      reason: "gone" | "webhook_disabled" | "not_pending";
    };

export interface AttemptOptions {
  deliveryId: string;
  /** This attempt's number in the delivery's log. */
  number: number;
  /** No retry follows: a failure ends the delivery. */
  last: boolean;
  /** Test sends go out to a disabled webhook too (a check before enabling it again). */
  ignoreDisabled?: boolean;
  /** D20: 10 s. */
  timeoutMs?: number;
  /** Tests only (default: from the environment). */
  outboundPolicy?: OutboundPolicy;
}

/**
 * One attempt of a delivery (D20): checks that the webhook still exists and is enabled, builds the
 * body with a fresh timestamp, signs and POSTs it, logs the attempt, and ends the delivery on
 * success or after the last attempt (the counter moves once). Throws only for infrastructure
 * faults (database), which the job engine retries; run again after it logged the attempt, it
 * reuses the logged result instead of sending again.
 */
export async function attemptDelivery(options: AttemptOptions): Promise<AttemptOutcome> {
  const { deliveryId, number, last } = options;
  const delivery = await db.webhookDelivery.findUnique({
    where: { id: deliveryId },
    include: {
      webhook: { select: { id: true, orgId: true, url: true, enabled: true, secretEncrypted: true } },
      event: { select: { id: true, portalId: true, data: true, occurredAt: true } },
      attempts: { where: { number }, select: { success: true, statusCode: true, error: true } },
    },
  });
  if (!delivery) return { outcome: "stopped", reason: "gone" };
  if (delivery.status !== "pending") return { outcome: "stopped", reason: "not_pending" };
  const { webhook } = delivery;
  const counts = delivery.eventType !== TEST_EVENT;

  let result = delivery.attempts[0];
  if (!result) {
    if (!webhook.enabled && !options.ignoreDisabled) {
      // D20: a disabled webhook stops its pending retries; the delivery ends without counting.
      await finishDelivery({ deliveryId, webhookId: webhook.id, status: "failed", count: false });
      return { outcome: "stopped", reason: "webhook_disabled" };
    }
    const payload = await buildPayload({
      deliveryId,
      webhookId: webhook.id,
      orgId: webhook.orgId,
      eventType: delivery.eventType,
      deliveryCreatedAt: delivery.createdAt,
      event: delivery.event,
    });
    const response = await sendWebhookRequest({
      url: webhook.url,
      secret: decrypt(webhook.secretEncrypted),
      deliveryId,
      eventType: delivery.eventType,
      payload,
      timeoutMs: options.timeoutMs,
      outboundPolicy: options.outboundPolicy,
    });
    const { startedAt, durationMs, success, statusCode, error, responseBody } = response;
    try {
      await db.$transaction([
        db.webhookAttempt.create({ data: { deliveryId, number, startedAt, durationMs, statusCode, success, error, responseBody } }),
        db.webhookDelivery.updateMany({ where: { id: deliveryId, attemptCount: { lt: number } }, data: { attemptCount: number } }),
      ]);
    } catch (e) {
      // Deleted while the request was out: the attempt has nowhere to go.
      if (e instanceof Prisma.PrismaClientKnownRequestError && e.code === "P2003") return { outcome: "stopped", reason: "gone" };
      throw e;
    }
    result = { success, statusCode, error };
  }

  const { success, statusCode, error } = result;
  if (success || last) {
    await finishDelivery({ deliveryId, webhookId: webhook.id, status: success ? "succeeded" : "failed", count: counts });
  }
  return { outcome: success ? "succeeded" : last ? "failed" : "retry", attempt: number, statusCode, error };
}
