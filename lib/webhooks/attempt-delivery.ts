import { randomUUID } from "node:crypto";

import { decrypt } from "@/lib/crypto";
import type { Prisma } from "@/lib/generated/prisma/client";
import { inWaves, type OutboundPolicy } from "@/lib/outbound";
import { enumValue, fixedStatement, jsonRecordset, rows, sql } from "@/lib/sql";
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

/**
 * Each requested delivery with its webhook, its event, this attempt's log row if any, and the
 * event's portal with its external ids, in one statement for all of them: one snapshot, the
 * portal's name as it is at the attempt. A delivery deleted meanwhile has no row.
 */
async function loadAttempts(requests: readonly AttemptRequest[], at: Date) {
  const wanted = requests.map((r) => ({ id: r.deliveryId, number: r.number }));
  return rows(loadStatement({ wanted: JSON.stringify(wanted), at }));
}

/** Compiled once (fixedStatement): every step of a delivery run sends it. */
const loadStatement = fixedStatement(["wanted", "at"], ({ wanted, at }: { wanted: string; at: Date }) =>
  sql
    .selectFrom(jsonRecordset(wanted, "t", { id: "uuid", number: "int" }))
    .innerJoin("WebhookDelivery as d", "d.id", "t.id")
    .innerJoin("Webhook as w", "w.id", "d.webhookId")
    .leftJoin("Event as e", "e.id", "d.eventId")
    // This attempt's log row, if an earlier run of the step logged it: one probe of the unique
    // (delivery, number) index per delivery, as a lateral subquery with a limit so that the plan
    // cannot turn it into a hash join over a scan of every attempt (which the planner prefers
    // while the table is small, and which then grows with it).
    .leftJoinLateral(
      (eb) =>
        eb
          .selectFrom("WebhookAttempt as a")
          .select(["a.success", "a.statusCode", "a.error"])
          .whereRef("a.deliveryId", "=", "d.id")
          .whereRef("a.number", "=", "t.number")
          .limit(1)
          .as("a"),
      (j) => j.onTrue(),
    )
    .leftJoin("Portal as p", (j) => j.onRef("p.id", "=", "e.portalId").onRef("p.orgId", "=", "w.orgId"))
    .select((eb) => [
      "d.id as deliveryId",
      "t.number",
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
    ]),
);

type Loaded = Awaited<ReturnType<typeof loadAttempts>>[number];

/** An attempt made, to be logged. */
interface Made {
  deliveryId: string;
  number: number;
  response: WebhookResponse;
  /** It ends the delivery (success, or the last attempt). */
  finish: boolean;
  /** Its end moves the webhook's counter (not for test sends). */
  count: boolean;
}

/**
 * Logs the attempts and ends the deliveries they end (`finish`): one statement for all of them,
 * so one round trip and one transaction, where the attempt rows, the deliveries' attempt counts,
 * their ends and the webhooks' counters commit together or not at all.
 *
 * Why it is exact under concurrency (READ COMMITTED):
 * - `done` ends a delivery only while it is still pending: of two runs ending it (a duplicate
 *   run, or webhook-delivery-failed), the second waits for the first's row lock, re-reads the row,
 *   finds it no longer pending and changes nothing; only the rows `done` changed move their
 *   webhook's counter (`counted`, one update per webhook with the sums), so a counter moves once
 *   per outcome (D20).
 * - The attempt count is raised in the same row update as the end (`done`) or, for the rows `done`
 *   did not change, by `numbered`: never two updates of one row in one statement (PostgreSQL
 *   leaves that undefined). `numbered` takes only rows proven absent from `done`'s whole output.
 * - The attempt rows' foreign key is checked at the end of the statement: a delivery deleted (its
 *   webhook deleted) meanwhile fails the whole statement with 23503, and an attempt number logged
 *   twice with 23505; nothing is left half done, and logAttempts then logs the attempts one by one.
 */
async function logAttemptsTogether(made: readonly Made[]): Promise<void> {
  const now = new Date().toISOString();
  const input = made.map(({ deliveryId, number, response, finish, count }) => ({
    id: randomUUID(),
    deliveryId,
    number,
    startedAt: response.startedAt.toISOString(),
    durationMs: response.durationMs,
    statusCode: response.statusCode,
    success: response.success,
    error: response.error,
    responseBody: response.responseBody,
    finish,
    count,
  }));
  await rows(logStatement({ input: JSON.stringify(input), now }));
}

/** Compiled once (fixedStatement): every step of a delivery run that made attempts sends it. */
const logStatement = fixedStatement(["input", "now"], ({ input, now }: { input: string; now: string }) =>
  sql
    .with("t", (db) =>
      db
        .selectFrom(
          jsonRecordset(input, "r", {
            id: "uuid",
            deliveryId: "uuid",
            number: "int",
            startedAt: "timestamp",
            durationMs: "int",
            statusCode: "int",
            success: "bool",
            error: "text",
            responseBody: "text",
            finish: "bool",
            count: "bool",
          }),
        )
        .selectAll(),
    )
    .with("logged", (q) =>
      q
        .insertInto("WebhookAttempt")
        .columns(["id", "deliveryId", "number", "startedAt", "durationMs", "statusCode", "success", "error", "responseBody"])
        .expression((eb) =>
          eb
            .selectFrom("t")
            .select((s) => [
              s.ref("t.id").$notNull().as("id"),
              s.ref("t.deliveryId").$notNull().as("deliveryId"),
              s.ref("t.number").$notNull().as("number"),
              s.ref("t.startedAt").$notNull().as("startedAt"),
              s.ref("t.durationMs").$notNull().as("durationMs"),
              "t.statusCode",
              s.ref("t.success").$notNull().as("success"),
              "t.error",
              "t.responseBody",
            ]),
        )
        .returning("id"),
    )
    .with("done", (q) =>
      q
        .updateTable("WebhookDelivery as d")
        .from("t")
        .set((eb) => ({
          status: eb.case().when("t.success", "=", true).then(enumValue("succeeded", "DeliveryStatus")).else(enumValue("failed", "DeliveryStatus")).end(),
          completedAt: now,
          attemptCount: eb.fn("greatest", ["d.attemptCount", "t.number"]),
        }))
        .whereRef("d.id", "=", "t.deliveryId")
        .where("t.finish", "=", true)
        .where("d.status", "=", "pending")
        .returning(["d.id", "d.webhookId", "t.success", "t.count"]),
    )
    .with("numbered", (q) =>
      q
        .updateTable("WebhookDelivery as d")
        .from("t")
        .set((eb) => ({ attemptCount: eb.ref("t.number").$notNull() }))
        .whereRef("d.id", "=", "t.deliveryId")
        .whereRef("d.attemptCount", "<", "t.number")
        .where("d.id", "not in", (eb) => eb.selectFrom("done").select("done.id"))
        .returning("d.id"),
    )
    .with("counted", (q) =>
      q
        .updateTable("Webhook as w")
        .from((eb) =>
          eb
            .selectFrom("done")
            .select((c) => [
              "done.webhookId",
              c.cast<number>(c.fn.countAll().filterWhere("done.success", "=", true), "integer").as("succeeded"),
              c.cast<number>(c.fn.countAll().filterWhere("done.success", "=", false), "integer").as("failed"),
            ])
            .where("done.count", "=", true)
            .groupBy("done.webhookId")
            .as("c"),
        )
        .set((eb) => ({
          successCount: eb("w.successCount", "+", eb.ref("c.succeeded")),
          failureCount: eb("w.failureCount", "+", eb.ref("c.failed")),
          updatedAt: now,
        }))
        .whereRef("w.id", "=", "c.webhookId")
        .returning("w.id"),
    )
    .selectFrom("logged")
    .select((eb) => eb.cast<number>(eb.fn.countAll(), "integer").as("logged")),
);

/**
 * Logs the attempts (logAttemptsTogether). Should the statement for all of them fail on a key
 * (a delivery deleted while its request was out, an attempt a duplicate run logged), each is
 * logged on its own: the deleted ones are reported gone, the others logged; a duplicate's error is
 * thrown once the rest are logged, for the engine to retry. Returns the ids of deliveries gone.
 */
async function logAttempts(made: readonly Made[]): Promise<Set<string>> {
  const gone = new Set<string>();
  if (made.length === 0) return gone;
  try {
    await logAttemptsTogether(made);
    return gone;
  } catch (e) {
    if (made.length === 1) {
      if (isForeignKeyViolation(e)) gone.add(made[0]!.deliveryId);
      else throw e;
      return gone;
    }
    if (!isKeyViolation(e)) throw e;
  }
  let fault: unknown;
  for (const one of made) {
    try {
      for (const id of await logAttempts([one])) gone.add(id);
    } catch (e) {
      fault ??= e;
    }
  }
  if (fault !== undefined) throw fault;
  return gone;
}

function sqlState(e: unknown): unknown {
  const error = e as { code?: unknown; meta?: { code?: unknown; driverAdapterError?: { cause?: { originalCode?: unknown } } } };
  return error?.code ?? error?.meta?.code ?? error?.meta?.driverAdapterError?.cause?.originalCode;
}

/** 23503 as pg reports it, or as Prisma does when a test substituted the client (query's fallback). */
function isForeignKeyViolation(e: unknown): boolean {
  const error = e as { meta?: { driverAdapterError?: { cause?: { kind?: unknown } } } };
  const state = sqlState(e);
  return state === "23503" || state === "P2003" || error?.meta?.driverAdapterError?.cause?.kind === "ForeignKeyConstraintViolation";
}

function isKeyViolation(e: unknown): boolean {
  const state = sqlState(e);
  return isForeignKeyViolation(e) || state === "23505" || state === "P2002";
}

export interface AttemptRequest {
  deliveryId: string;
  /** This attempt's number in the delivery's log. */
  number: number;
  /** No retry follows: a failure ends the delivery. */
  last: boolean;
}

export interface AttemptSettings {
  /** Test sends go out to a disabled webhook too (a check before enabling it again). */
  ignoreDisabled?: boolean;
  /** D20: 10 s. */
  timeoutMs?: number;
  /** Tests only (default: from the environment). */
  outboundPolicy?: OutboundPolicy;
  /** Requests out at once, sent in waves (lib/outbound/waves.ts; default 5). */
  parallel?: number;
}

export type AttemptOptions = AttemptRequest & AttemptSettings;

/**
 * One attempt of each delivery (D20): checks that its webhook still exists and is enabled, builds
 * the body with a fresh timestamp, signs and POSTs it, logs the attempt, and ends the delivery on
 * success or after the last attempt (the counter moves once). Throws only for infrastructure
 * faults (database), which the job engine retries, after every attempt it could make was made
 * and logged; run again after it logged an attempt, it reuses the logged result instead of
 * sending again. Two statements for all the deliveries in the usual case: one read before the
 * POSTs, one write after them. The outcomes are in the order of the requests.
 */
export async function attemptDeliveries(requests: readonly AttemptRequest[], settings: AttemptSettings = {}): Promise<AttemptOutcome[]> {
  const now = new Date();
  const loaded = new Map((await loadAttempts(requests, now)).map((row) => [`${row.deliveryId}:${row.number}`, row]));
  const secrets = new Map<string, string>();
  const secret = (encrypted: string) => {
    let plain = secrets.get(encrypted);
    if (plain === undefined) secrets.set(encrypted, (plain = decrypt(encrypted)));
    return plain;
  };
  const wave = inWaves(settings.parallel ?? 5);
  const made: Made[] = [];
  const settled = await Promise.allSettled(
    requests.map(async (request): Promise<AttemptOutcome> => {
      const { deliveryId, number, last } = request;
      const delivery = loaded.get(`${deliveryId}:${number}`);
      if (!delivery) return { outcome: "stopped", reason: "gone" };
      if (delivery.status !== "pending") return { outcome: "stopped", reason: "not_pending" };
      const counts = delivery.eventType !== TEST_EVENT;
      if (delivery.loggedSuccess !== null) return reuseLogged(delivery, request, counts);
      if (!delivery.enabled && !settings.ignoreDisabled) {
        // D20: a disabled webhook stops its pending retries; the delivery ends without counting.
        await finishDelivery({ deliveryId, webhookId: delivery.webhookId, status: "failed", count: false });
        return { outcome: "stopped", reason: "webhook_disabled" };
      }
      const response = await wave(() => send(delivery, now, settings, secret));
      made.push({ deliveryId, number, response, finish: response.success || last, count: counts });
      const { success, statusCode, error } = response;
      return { outcome: success ? "succeeded" : last ? "failed" : "retry", attempt: number, statusCode, error };
    }),
  );
  // Every request made is logged, whatever else failed.
  const gone = await logAttempts(made);
  const fault = settled.find((r) => r.status === "rejected");
  if (fault) throw fault.reason;
  return requests.map((request, i) => {
    const outcome = (settled[i] as PromiseFulfilledResult<AttemptOutcome>).value;
    // Deleted while the request was out: the attempt had nowhere to go.
    return gone.has(request.deliveryId) && outcome.outcome !== "stopped" ? { outcome: "stopped", reason: "gone" } : outcome;
  });
}

/** One attempt of one delivery (attemptDeliveries). */
export async function attemptDelivery(options: AttemptOptions): Promise<AttemptOutcome> {
  const [outcome] = await attemptDeliveries([options], options);
  return outcome!;
}

/** Logged by an earlier run of this step that failed after the log: not sent again. */
async function reuseLogged(delivery: Loaded, { deliveryId, number, last }: AttemptRequest, counts: boolean): Promise<AttemptOutcome> {
  const success = delivery.loggedSuccess === true;
  if (success || last) await finishDelivery({ deliveryId, webhookId: delivery.webhookId, status: success ? "succeeded" : "failed", count: counts });
  return { outcome: success ? "succeeded" : last ? "failed" : "retry", attempt: number, statusCode: delivery.loggedStatusCode, error: delivery.loggedError };
}

function send(delivery: Loaded, now: Date, settings: AttemptSettings, secret: (encrypted: string) => string): Promise<WebhookResponse> {
  const payload = buildPayload(
    {
      deliveryId: delivery.deliveryId,
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
  return sendWebhookRequest({
    url: delivery.url,
    secret: secret(delivery.secretEncrypted),
    previousSecret: delivery.previousSecretEncrypted === null ? null : secret(delivery.previousSecretEncrypted),
    deliveryId: delivery.deliveryId,
    sentAt: now,
    eventType: delivery.eventType,
    payload,
    timeoutMs: settings.timeoutMs,
    outboundPolicy: settings.outboundPolicy,
  });
}
