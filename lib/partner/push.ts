import { createHash } from "node:crypto";
import { pipeline } from "node:stream/promises";
import { Writable } from "node:stream";
import { portalWhere, requirePortal } from "@/lib/access/policy";
import { actorOf, type Viewer } from "@/lib/access/viewer";
import { recordAudit } from "@/lib/audit/record-audit";
import { db, type Tx } from "@/lib/db";
import { rows, sql } from "@/lib/sql";
import { queueEmail } from "@/lib/email/send-email";
import { partnerPushedEmail } from "@/lib/email/templates/partner-pushed";
import { invalidRequest, notFound } from "@/lib/errors";
import { recordEvent } from "@/lib/events/record-event";
import { withChange } from "@/lib/events/with-change";
import { Prisma } from "@/lib/generated/prisma/client";
import { fileWebUrl } from "@/lib/links";
import { openObjectStream } from "@/lib/storage/read-stream";
import { isPartnerError, type PartnerConnector } from "./connector";
import { connectorForOrg } from "./connection";
import { isLastAttempt, retryDelaySeconds, type RetrySchedule, retryScheduleFromEnv } from "./retry";
import { currentLinkForPush } from "./verify-link";

// Pushes to the partner (spec section 6, "Partner push"; D25, D26): one PartnerPush row per
// (entity, event) and window, planned from the event, then attempted by the job engine with
// durable sleeps between attempts. Every attempt is logged on the row and in the portal's history.

const FILE_EVENTS = ["file.uploaded", "file.signed"] as const;
type NoticeEvent = "task.created" | "task.completed" | "portal.workflow_changed" | "portal.unlinked";
export type PushedEvent = (typeof FILE_EVENTS)[number] | NoticeEvent;

const isFileEvent = (event: string): boolean => (FILE_EVENTS as readonly string[]).includes(event);

export interface PlanInput {
  orgId: string;
  portalId: string | null;
  /** The Event row id (the relayed event's `event_id`). */
  eventId: string;
  event: PushedEvent;
  data: Record<string, unknown>;
}

export type PlanResult = { pushId: string; created: boolean } | { skipped: string };

/**
 * The entity a push is idempotent on with its event: the file for file events, the task for task
 * events; a workflow change or an unlinking happens many times to one portal, so each is its own
 * entity (its event row).
 */
function entityOf(input: PlanInput): string {
  if (isFileEvent(input.event) || input.event === "task.created" || input.event === "task.completed") {
    const key = isFileEvent(input.event) ? "file_id" : "task_id";
    const value = input.data[key];
    if (typeof value !== "string") throw new Error(`${input.event} without ${key}`);
    return value;
  }
  return input.eventId;
}

/**
 * Decides whether an event goes to the partner and makes its push row, once: a second handling of
 * the same (entity, event) finds the row and starts nothing new. A stale link is re-verified first
 * (D26). Skipped when the organization is not connected or the portal is not linked.
 */
export async function planPartnerPush(input: PlanInput): Promise<PlanResult> {
  const { orgId, portalId, event } = input;
  if (!portalId) return { skipped: "no portal" };
  const connected = await db.partnerConnection.findFirst({ where: { orgId, status: "connected" }, select: { id: true } });
  if (!connected) return { skipped: "the partner integration is not connected" };

  let customerId: string;
  if (event === "portal.unlinked") {
    customerId = String(input.data.customer_id);
  } else {
    const link = await currentLinkForPush(orgId, portalId);
    if (!link || link.status !== "linked") return { skipped: "the portal is not linked" };
    customerId = link.customerId;
  }
  const entityId = entityOf(input);
  const fileId = isFileEvent(event) ? entityId : null;
  if (fileId) {
    const file = await db.fileEntry.findFirst({
      where: { id: fileId, orgId, portalId, status: "registered", deletedAt: null, isFolder: false },
      select: { id: true },
    });
    if (!file) return { skipped: "the file is gone" };
  }
  try {
    const row = await db.partnerPush.create({
      data: { orgId, portalId, entityId, fileId, event, customerId, eventId: input.eventId, generation: 0 },
      select: { id: true },
    });
    return { pushId: row.id, created: true };
  } catch (error) {
    if (!(error instanceof Prisma.PrismaClientKnownRequestError && error.code === "P2002")) throw error;
    const existing = await db.partnerPush.findFirstOrThrow({ where: { entityId, event, generation: 0 }, select: { id: true } });
    return { pushId: existing.id, created: false };
  }
}

/**
 * Whether planPartnerPush can plan anything for this event, in one cheap query: the organization's
 * partner integration is connected, or a push of this event exists already (a repeated run must
 * find it again, even if the integration was disconnected since). The plan function asks it before
 * any step, so that an organization without the integration costs one query and one call per event
 *. When it says no, planPartnerPush would have skipped the event with `reason`.
 */
export async function mayPlanPartnerPush({
  orgId,
  portalId,
  eventId,
}: {
  orgId: string;
  portalId: string | null;
  eventId: string;
}): Promise<{ skipped: string } | null> {
  if (!portalId) return { skipped: "no portal" };
  const [row] = await rows(
    sql.selectNoFrom((eb) =>
      eb
        .or([
          eb.exists(eb.selectFrom("PartnerConnection").select("id").where("orgId", "=", orgId).where("status", "=", "connected")),
          eb.exists(eb.selectFrom("PartnerPush").select("id").where("portalId", "=", portalId).where("eventId", "=", eventId)),
        ])
        .as("any"),
    ),
  );
  return row?.any === true ? null : { skipped: "the partner integration is not connected" };
}

export type AttemptResult =
  | { outcome: "succeeded"; attempt: number; duplicate: boolean }
  | { outcome: "retry"; attempt: number; error: string; delaySeconds: number }
  | { outcome: "failed"; attempt: number; error: string }
  | { outcome: "stopped"; reason: "gone" | "not_pending" };

export interface PushAttemptOptions {
  pushId: string;
  /** This attempt's number in the push's window (1-based). */
  number: number;
  /** Defaults to the environment's (D26). */
  schedule?: RetrySchedule;
  /** Tests only: a connector instead of the organization's. */
  connector?: PartnerConnector;
}

type LoadedPush = Prisma.PartnerPushGetPayload<{ include: { file: true; portal: { select: { name: true } } } }>;

/** SHA-256 of a stored object, read as a stream (never whole in memory). */
async function hashObject(key: string): Promise<string> {
  const hash = createHash("sha256");
  await pipeline(
    await openObjectStream(key),
    new Writable({
      write(chunk: Buffer, _encoding, done) {
        hash.update(chunk);
        done();
      },
    }),
  );
  return hash.digest("hex");
}

/** Sends one push: a file's bytes (announced with their SHA-256, then streamed), or a notice. */
async function send(push: LoadedPush, connector: PartnerConnector): Promise<{ duplicate: boolean }> {
  const key = { customerId: push.customerId, entityId: push.entityId, event: push.event };
  if (push.fileId) {
    const file = push.file;
    if (!file?.storageKey) throw new GoneError("The file was deleted");
    const sha256 = await hashObject(file.storageKey);
    const ticket = await connector.requestUpload({
      ...key,
      fileId: file.id,
      name: file.name,
      size: file.size,
      contentType: file.contentType ?? "application/octet-stream",
      sha256,
    });
    if (ticket.kind === "already_received") return { duplicate: true };
    await connector.uploadBytes({ uploadUrl: ticket.uploadUrl, body: await openObjectStream(file.storageKey), size: file.size, sha256 });
    return { duplicate: false };
  }
  const source = push.eventId ? await db.event.findUnique({ where: { id: push.eventId }, select: { data: true, occurredAt: true } }) : null;
  const data = { ...((source?.data as Record<string, unknown> | null) ?? {}), portal_id: push.portalId, occurred_at: source?.occurredAt.toISOString() ?? null };
  return connector.sendNotice({ ...key, data });
}

/** The push cannot succeed any more (its file is gone): it ends without further attempts. */
class GoneError extends Error {}

/**
 * One attempt of a push (D26): sends, logs the attempt on the row and in the portal's history,
 * and ends the push on success or when the window is used up (marked failed, Resend offered). A
 * success of a file push emails the portal's guests (the guest download notification). Throws only
 * for infrastructure faults (database, storage), which the job engine retries; run again after it
 * logged the attempt, it returns the logged result instead of sending again.
 */
export async function attemptPartnerPush(options: PushAttemptOptions): Promise<AttemptResult> {
  const { pushId, number } = options;
  const schedule = options.schedule ?? retryScheduleFromEnv();
  const push = await db.partnerPush.findUnique({ where: { id: pushId }, include: { file: true, portal: { select: { name: true } } } });
  if (!push) return { outcome: "stopped", reason: "gone" };
  if (push.status !== "pending") return { outcome: "stopped", reason: "not_pending" };
  const logged = await db.partnerPushAttempt.findUnique({ where: { pushId_number: { pushId, number } } });
  const last = isLastAttempt(number, schedule);
  if (logged) {
    // A replay after the attempt was logged but before the engine saw its result.
    if (logged.success) return { outcome: "succeeded", attempt: number, duplicate: false };
    return last
      ? { outcome: "failed", attempt: number, error: logged.error ?? "" }
      : { outcome: "retry", attempt: number, error: logged.error ?? "", delaySeconds: retryDelaySeconds(number, schedule) };
  }

  const started = new Date();
  let result: { ok: true; duplicate: boolean } | { ok: false; error: string; statusCode: number | null; final: boolean };
  try {
    const connector = options.connector ?? (await connectorForOrg(push.orgId));
    if (!connector) throw new GoneError("The partner integration is not connected");
    const sent = await send(push, connector);
    result = { ok: true, duplicate: sent.duplicate };
  } catch (error) {
    if (error instanceof GoneError) result = { ok: false, error: error.message, statusCode: null, final: true };
    else if (isPartnerError(error)) result = { ok: false, error: error.message, statusCode: error.statusCode, final: false };
    else throw error;
  }
  const durationMs = Date.now() - started.getTime();
  const ends = result.ok || result.final || last;

  await withChange(async (tx) => {
    await tx.partnerPushAttempt.create({
      data: {
        pushId,
        number,
        startedAt: started,
        durationMs,
        statusCode: result.ok ? null : result.statusCode,
        success: result.ok,
        error: result.ok ? null : result.error,
      },
    });
    const status = result.ok ? "succeeded" : ends ? "failed" : "pending";
    await tx.partnerPush.update({
      where: { id: pushId },
      data: {
        status,
        attemptCount: number,
        lastError: result.ok ? null : result.error,
        completedAt: ends ? new Date() : null,
        nextAttemptAt: ends ? null : new Date(Date.now() + retryDelaySeconds(number, schedule) * 1000),
      },
    });
    const action = result.ok ? "partner_push.succeeded" : ends ? "partner_push.failed" : "partner_push.attempt_failed";
    await recordAudit(tx, {
      orgId: push.orgId,
      portalId: push.portalId,
      actor: { type: "system" },
      action,
      targetType: push.fileId ? "file" : "partner_link",
      targetId: push.fileId ?? push.portalId,
      metadata: {
        event: push.event,
        entity_id: push.entityId,
        customer_id: push.customerId,
        attempt: number,
        ...(push.fileId && push.file ? { name: push.file.name } : {}),
        ...(result.ok ? { duplicate: result.duplicate } : { error: result.error }),
      },
    });
    if (result.ok && push.file && !result.duplicate) await notifyGuests(tx, push);
  });
  if (result.ok) return { outcome: "succeeded", attempt: number, duplicate: result.duplicate };
  if (ends) return { outcome: "failed", attempt: number, error: result.error };
  return { outcome: "retry", attempt: number, error: result.error, delaySeconds: retryDelaySeconds(number, schedule) };
}

/** The guest download notification of a pushed file: its portal's guests, per their settings. */
async function notifyGuests(tx: Tx, push: LoadedPush): Promise<void> {
  if (!push.file) return;
  const link = await tx.partnerLink.findUnique({ where: { portalId: push.portalId }, select: { displayName: true } });
  const guests = await tx.portalGuest.findMany({
    where: { orgId: push.orgId, portalId: push.portalId, acceptedAt: { not: null } },
    select: { user: { select: { id: true, email: true } } },
  });
  if (guests.length === 0) return;
  const off = await tx.notificationSetting.findMany({
    where: { orgId: push.orgId, userId: { in: guests.map((g) => g.user.id) }, fileUploaded: false },
    select: { userId: true },
  });
  const skip = new Set(off.map((o) => o.userId));
  const content = partnerPushedEmail({
    portalName: push.portal.name,
    fileName: push.file.name,
    partnerName: link?.displayName ?? "the partner",
    fileUrl: fileWebUrl(push.orgId, push.portalId, push.file.id),
  });
  for (const { user } of guests) {
    if (skip.has(user.id)) continue;
    await queueEmail(tx, { orgId: push.orgId, to: user.email, ...content, template: "partner-pushed" });
  }
}

/**
 * Resend (D26): a file whose push failed gets a new push row (the next generation) with a new
 * window, and its attempt series starts. Members and admins, web only.
 */
export async function resendPartnerPush({ viewer, portalId, fileId }: { viewer: Viewer; portalId: string; fileId: string }) {
  requirePortal(viewer, portalId, "manageFiles", "File");
  const file = await db.fileEntry.findFirst({
    where: { id: fileId, portalId, orgId: viewer.orgId, status: "registered", deletedAt: null, portal: portalWhere(viewer, "manageFiles") },
    select: { id: true, name: true },
  });
  if (!file) throw notFound("File");
  return withChange(async (tx) => {
    // The file's row lock serialises two Resends: the second finds the new pending push.
    await rows(sql.selectFrom("FileEntry").select("id").where("id", "=", fileId).forUpdate(), { tx });
    const latest = await tx.partnerPush.findFirst({ where: { fileId, portalId }, orderBy: [{ createdAt: "desc" }, { generation: "desc" }] });
    if (!latest || latest.status !== "failed") throw invalidRequest("Only a file whose push to the partner failed can be resent");
    const next = await tx.partnerPush.create({
      data: {
        orgId: latest.orgId,
        portalId,
        entityId: latest.entityId,
        fileId,
        event: latest.event,
        customerId: latest.customerId,
        eventId: latest.eventId,
        generation: latest.generation + 1,
      },
    });
    await recordAudit(tx, {
      orgId: viewer.orgId,
      portalId,
      actor: actorOf(viewer),
      action: "partner_push.resent",
      targetType: "file",
      targetId: fileId,
      metadata: { name: file.name, event: latest.event, generation: next.generation },
    });
    await recordEvent(tx, { orgId: viewer.orgId, portalId, type: "partner/push.requested", data: { push_id: next.id } });
    return toPushStatus(next);
  });
}

type PushStatusName = "sending" | "sent" | "failed";

/** How long after its upload a file of a linked portal shows as sending before its push row exists. */
const QUEUED_WINDOW_MS = 2 * 60_000;

export interface FilePushStatus {
  fileId: string;
  status: PushStatusName;
  event: string;
  attempts: number;
  lastError: string | null;
  updatedAt: Date;
}

function toPushStatus(p: {
  fileId: string | null;
  status: "pending" | "succeeded" | "failed";
  event: string;
  attemptCount: number;
  lastError: string | null;
  updatedAt: Date;
}): FilePushStatus {
  return {
    fileId: p.fileId ?? "",
    status: p.status === "pending" ? "sending" : p.status === "succeeded" ? "sent" : "failed",
    event: p.event,
    attempts: p.attemptCount,
    lastError: p.lastError,
    updatedAt: p.updatedAt,
  };
}

/**
 * Each file's partner push status in a portal (its latest push), for the file rows of the portal
 * page. Members and admins; files never pushed are absent.
 */
export async function listPartnerPushStatuses({ viewer, portalId }: { viewer: Viewer; portalId: string }): Promise<Record<string, FilePushStatus>> {
  requirePortal(viewer, portalId, "manageFiles");
  if (!(await db.portal.findFirst({ where: { ...portalWhere(viewer, "manageFiles"), id: portalId }, select: { id: true } }))) throw notFound("Portal");
  const byFile: Record<string, FilePushStatus> = {};
  // Files uploaded to a linked portal moments ago whose push the job engine has not planned yet
  // show as sending too, so the page keeps checking until the push row appears. A link being
  // verified again in place counts as linked: its files are pushed once it is confirmed.
  // They are read before the push rows: a push planned between the two reads is then in the
  // second (its real status replaces "sending"), where the other order would miss the file in
  // both and leave the page with no status and nothing to refresh it.
  const link = await db.partnerLink.findFirst({
    where: { portalId, orgId: viewer.orgId, status: { in: ["linked", "verifying"] }, org: { partnerConnection: { status: "connected" } } },
  });
  if (link && (link.status === "linked" || link.verifiedAt)) {
    const since = new Date(Math.max(link.createdAt.getTime(), Date.now() - QUEUED_WINDOW_MS));
    const queued = await db.fileEntry.findMany({
      where: {
        portalId,
        orgId: viewer.orgId,
        isFolder: false,
        status: "registered",
        deletedAt: null,
        registeredAt: { gte: since },
        partnerPushes: { none: {} },
      },
      select: { id: true, registeredAt: true },
    });
    for (const f of queued)
      byFile[f.id] = { fileId: f.id, status: "sending", event: "file.uploaded", attempts: 0, lastError: null, updatedAt: f.registeredAt ?? new Date() };
  }
  const rows = await db.partnerPush.findMany({
    where: { portalId, orgId: viewer.orgId, fileId: { not: null }, portal: portalWhere(viewer, "manageFiles") },
    orderBy: [{ createdAt: "asc" }, { generation: "asc" }],
    select: { fileId: true, status: true, event: true, attemptCount: true, lastError: true, updatedAt: true },
  });
  for (const row of rows) if (row.fileId) byFile[row.fileId] = toPushStatus(row);
  return byFile;
}
