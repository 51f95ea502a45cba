import { randomUUID } from "node:crypto";

import { decrypt } from "@/lib/crypto";
import type { Prisma } from "@/lib/generated/prisma/client";
import type { OutboundPolicy } from "@/lib/outbound";
import { rows, sql } from "@/lib/sql";
import { finishDelivery } from "./finish-delivery";
import { buildPayload, TEST_EVENT } from "./payload";
import { sendWebhookRequest, type WebhookResponse } from "./send";

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
 * The delivery with its webhook, its event, this attempt's log row if any, and the event's portal
 * with its external ids, in one statement: one snapshot, the portal's name as it is at the attempt.
 */
async function loadAttempt(deliveryId: string, number: number, at: Date) {
  const [row] = await rows(
    sql
      .selectFrom("WebhookDelivery as d")
      .innerJoin("Webhook as w", "w.id", "d.webhookId")
      .leftJoin("Event as e", "e.id", "d.eventId")
      .leftJoin("WebhookAttempt as a", (j) => j.onRef("a.deliveryId", "=", "d.id").on("a.number", "=", number))
      .leftJoin("Portal as p", (j) => j.onRef("p.id", "=", "e.portalId").onRef("p.orgId", "=", "w.orgId"))
      .select((eb) => [
        "d.status",
        "d.eventType",
        "d.createdAt",
        "w.id as webhookId",
        "w.orgId",
        "w.url",
        "w.enabled",
        "w.secretEncrypted",
        // The rotated-out secret, only while its grace period lasts at the attempt's time.
        eb.case().when("w.previousSecretExpiresAt", ">", at).then(eb.ref("w.previousSecretEncrypted")).else(null).end().as("previousSecretEncrypted"),
        "e.id as eventId",
        "e.portalId",
        // A json column holds JSON: what the pg driver parses it to.
        eb.ref("e.data").$castTo<Prisma.JsonValue>().as("data"),
        "e.occurredAt",
        "a.success as loggedSuccess",
        "a.statusCode as loggedStatusCode",
        "a.error as loggedError",
        "p.name as portalName",
        // [system, value] pairs in creation order; null without a portal.
        eb
          .case()
          .when("p.id", "is not", null)
          .then(
            eb
              .selectFrom("ExternalSystemId as x")
              .select((x) =>
                x.fn
                  .coalesce(
                    x.fn
                      .agg<[string, string][]>("json_agg", [x.fn("json_build_array", ["x.system", "x.value"])])
                      .orderBy("x.createdAt")
                      .orderBy("x.id"),
                    x.cast<[string, string][]>(x.val("[]"), "json"),
                  )
                  .as("pairs"),
              )
              .whereRef("x.portalId", "=", "p.id"),
          )
          .end()
          .as("externalIds"),
      ])
      .where("d.id", "=", deliveryId),
  );
  return row;
}

/**
 * Logs the attempt and, when it ends the delivery (`finish`), ends it: one statement,
 * so one round trip and one transaction, where the attempt row, the delivery's attempt count, its
 * end and the webhook's counter commit together or not at all. Returns false when the delivery was
 * deleted meanwhile (the attempt has nowhere to go).
 *
 * Why it is exact under concurrency (READ COMMITTED):
 * - `done` ends the delivery only while it is still pending: of two runs ending it (a duplicate
 *   run, or webhook-delivery-failed), the second waits for the first's row lock, re-reads the row,
 *   finds it no longer pending and changes nothing; only the `done` that changed the row moves the
 *   webhook's counter (`counted`), so the counter moves once per outcome (D20).
 * - The attempt count is raised in the same row update as the end (`done`) or, when `done`
 *   changed nothing, by `numbered`: never two updates of one row in one statement (PostgreSQL
 *   leaves that undefined). `NOT EXISTS (SELECT 1 FROM done)` is uncorrelated, so `numbered`
 *   only runs after `done` has finished.
 * - The attempt row's foreign key is checked at the end of the statement: a delivery deleted (its
 *   webhook deleted) meanwhile fails the whole statement with 23503, nothing is left half done.
 *   An attempt number logged twice fails it with 23505, which the job engine retries; the retry
 *   then reuses the logged attempt (attemptDelivery).
 */
async function logAttempt(deliveryId: string, number: number, response: WebhookResponse, end: { finish: boolean; count: boolean }): Promise<boolean> {
  const { startedAt, durationMs, success, statusCode, error, responseBody } = response;
  const now = new Date();
  const counter = success ? "successCount" : "failureCount";
  try {
    await rows(
      sql
        .with("logged", (q) =>
          q
            .insertInto("WebhookAttempt")
            .values({ id: randomUUID(), deliveryId, number, startedAt, durationMs, statusCode, success, error, responseBody })
            .returning("id"),
        )
        .with("done", (q) =>
          q
            .updateTable("WebhookDelivery")
            .set((eb) => ({ status: success ? "succeeded" : "failed", completedAt: now, attemptCount: eb.fn("greatest", ["attemptCount", eb.val(number)]) }))
            .where("id", "=", deliveryId)
            .where((eb) => eb(eb.val(end.finish), "=", true))
            .where("status", "=", "pending")
            .returning("webhookId"),
        )
        .with("numbered", (q) =>
          q
            .updateTable("WebhookDelivery")
            .set({ attemptCount: number })
            .where("id", "=", deliveryId)
            .where("attemptCount", "<", number)
            .where((eb) => eb.not(eb.exists(eb.selectFrom("done").select("webhookId"))))
            .returning("id"),
        )
        .with("counted", (q) =>
          q
            .updateTable("Webhook")
            .set((eb) => ({ [counter]: eb(counter, "+", 1), updatedAt: now }))
            .where("id", "=", (eb) => eb.selectFrom("done").select("webhookId"))
            .where((eb) => eb(eb.val(end.count), "=", true))
            .returning("id"),
        )
        .selectFrom("logged")
        .select((eb) => eb.cast<number>(eb.fn.countAll(), "integer").as("logged")),
    );
  } catch (e) {
    if (isForeignKeyViolation(e)) return false;
    throw e;
  }
  return true;
}

/** 23503 as pg reports it, or as Prisma does when a test substituted the client (query's fallback). */
function isForeignKeyViolation(e: unknown): boolean {
  const error = e as { code?: unknown; meta?: { code?: unknown; driverAdapterError?: { cause?: { originalCode?: unknown; kind?: unknown } } } };
  if (error?.code === "23503" || error?.code === "P2003") return true;
  const cause = error?.meta?.driverAdapterError?.cause;
  return error?.meta?.code === "23503" || cause?.originalCode === "23503" || cause?.kind === "ForeignKeyConstraintViolation";
}

/**
 * One attempt of a delivery (D20): checks that the webhook still exists and is enabled, builds the
 * body with a fresh timestamp, signs and POSTs it, logs the attempt, and ends the delivery on
 * success or after the last attempt (the counter moves once). Throws only for infrastructure
 * faults (database), which the job engine retries; run again after it logged the attempt, it
 * reuses the logged result instead of sending again. Two statements in the usual case: one read
 * before the POST, one write after it.
 */
export async function attemptDelivery(options: AttemptOptions): Promise<AttemptOutcome> {
  const { deliveryId, number, last } = options;
  const now = new Date();
  const delivery = await loadAttempt(deliveryId, number, now);
  if (!delivery) return { outcome: "stopped", reason: "gone" };
  if (delivery.status !== "pending") return { outcome: "stopped", reason: "not_pending" };
  const counts = delivery.eventType !== TEST_EVENT;

  if (delivery.loggedSuccess !== null) {
    // Logged by an earlier run of this step that failed after the log: not sent again.
    const success = delivery.loggedSuccess;
    const statusCode = delivery.loggedStatusCode;
    const error = delivery.loggedError;
    if (success || last) {
      await finishDelivery({ deliveryId, webhookId: delivery.webhookId, status: success ? "succeeded" : "failed", count: counts });
    }
    return { outcome: success ? "succeeded" : last ? "failed" : "retry", attempt: number, statusCode, error };
  }

  if (!delivery.enabled && !options.ignoreDisabled) {
    // D20: a disabled webhook stops its pending retries; the delivery ends without counting.
    await finishDelivery({ deliveryId, webhookId: delivery.webhookId, status: "failed", count: false });
    return { outcome: "stopped", reason: "webhook_disabled" };
  }
  const payload = buildPayload(
    {
      deliveryId,
      webhookId: delivery.webhookId,
      orgId: delivery.orgId,
      eventType: delivery.eventType,
      deliveryCreatedAt: delivery.createdAt,
      event:
        delivery.eventId !== null && delivery.occurredAt !== null
          ? { id: delivery.eventId, portalId: delivery.portalId, data: delivery.data, occurredAt: delivery.occurredAt }
          : null,
      portal: delivery.portalName !== null ? { name: delivery.portalName, externalIds: delivery.externalIds ?? [] } : null,
    },
    now,
  );
  const response = await sendWebhookRequest({
    url: delivery.url,
    secret: decrypt(delivery.secretEncrypted),
    previousSecret: delivery.previousSecretEncrypted === null ? null : decrypt(delivery.previousSecretEncrypted),
    deliveryId,
    sentAt: now,
    eventType: delivery.eventType,
    payload,
    timeoutMs: options.timeoutMs,
    outboundPolicy: options.outboundPolicy,
  });
  const { success, statusCode, error } = response;
  // Deleted while the request was out: the attempt has nowhere to go.
  if (!(await logAttempt(deliveryId, number, response, { finish: success || last, count: counts }))) {
    return { outcome: "stopped", reason: "gone" };
  }
  return { outcome: success ? "succeeded" : last ? "failed" : "retry", attempt: number, statusCode, error };
}
