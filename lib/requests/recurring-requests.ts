import { requirePortal } from "@/lib/access/policy";
import { actorOf, type Viewer } from "@/lib/access/viewer";
import { recordAudit } from "@/lib/audit/record-audit";
import { db, runInTransaction } from "@/lib/db";
import { invalidRequest, notFound } from "@/lib/errors";
import { isUuid } from "@/lib/ids";
import { checkRequestSpec } from "./make-request-task";
import { firstPeriod, nextPeriod, occursAt } from "./recurrence";
import { parseRequestSpec } from "./parse-spec";
import { RecurrenceSchema, type Recurrence, type RequestSpecInput } from "./schemas";

/**
 * Makes a request recur on a portal (members and admins): from its first period (this month when
 * the day is still ahead, else next month) the recurring job makes one task per period.
 */
export async function createRecurringRequest({
  viewer,
  portalId,
  spec: specInput,
  recurrence,
  now = new Date(),
}: {
  viewer: Viewer;
  portalId: string;
  spec: RequestSpecInput;
  recurrence: Recurrence;
  now?: Date;
}) {
  requirePortal(viewer, portalId, "manageTasks");
  if (!isUuid(portalId)) throw notFound("Portal");
  const spec = parseRequestSpec(specInput);
  const parsed = RecurrenceSchema.safeParse(recurrence);
  if (!parsed.success) throw invalidRequest(`recurrence.${parsed.error.issues[0]!.path.join(".")}: ${parsed.error.issues[0]!.message}`);
  await checkRequestSpec(viewer, spec);
  return runInTransaction(async (tx) => {
    const portal = await tx.portal.findFirst({ where: { id: portalId, orgId: viewer.orgId, deletedAt: null, isTemplate: false }, select: { id: true } });
    if (!portal) throw notFound("Portal");
    const schedule = await tx.recurringRequest.create({
      data: {
        orgId: viewer.orgId,
        portalId,
        spec,
        frequency: parsed.data.frequency,
        dayOfMonth: parsed.data.day_of_month,
        startPeriod: firstPeriod(parsed.data.day_of_month, now),
        createdById: viewer.kind === "user" ? viewer.userId : null,
      },
    });
    await recordAudit(tx, {
      orgId: viewer.orgId,
      portalId,
      actor: actorOf(viewer),
      action: "recurring_request.created",
      targetType: "recurring_request",
      targetId: schedule.id,
      metadata: { title: spec.title, frequency: schedule.frequency, day_of_month: schedule.dayOfMonth, start_period: schedule.startPeriod },
    });
    return { recurringRequestId: schedule.id, startPeriod: schedule.startPeriod };
  });
}

export type ScheduleChange = "pause" | "resume" | "end";

/**
 * Pauses, resumes or ends a portal's recurring request (members and admins). A paused schedule
 * makes nothing; resumed, it goes on with the period then due (what passed while paused is not
 * made). Ended is final.
 */
export async function changeRecurringRequest({ viewer, recurringRequestId, change }: { viewer: Viewer; recurringRequestId: string; change: ScheduleChange }) {
  if (!isUuid(recurringRequestId)) throw notFound("Recurring request");
  return runInTransaction(async (tx) => {
    const schedule = await tx.recurringRequest.findFirst({ where: { id: recurringRequestId, orgId: viewer.orgId, portal: { deletedAt: null } } });
    if (!schedule) throw notFound("Recurring request");
    requirePortal(viewer, schedule.portalId, "manageTasks", "Recurring request");
    if (schedule.status === "ended") throw invalidRequest("change: The recurring request has ended");
    const status = change === "pause" ? "paused" : change === "resume" ? "active" : "ended";
    if (status === schedule.status) return { status };
    await tx.recurringRequest.update({ where: { id: schedule.id }, data: { status, endedAt: status === "ended" ? new Date() : null } });
    await recordAudit(tx, {
      orgId: viewer.orgId,
      portalId: schedule.portalId,
      actor: actorOf(viewer),
      action: `recurring_request.${change === "pause" ? "paused" : change === "resume" ? "resumed" : "ended"}`,
      targetType: "recurring_request",
      targetId: schedule.id,
      metadata: {},
    });
    return { status };
  });
}

/** A portal's recurring requests with their next occurrence (null once paused or ended) and the count made so far. */
export async function listRecurringRequests({ viewer, portalId, now = new Date() }: { viewer: Viewer; portalId: string; now?: Date }) {
  requirePortal(viewer, portalId, "manageTasks");
  if (!isUuid(portalId)) throw notFound("Portal");
  const portal = await db.portal.findFirst({ where: { id: portalId, orgId: viewer.orgId, deletedAt: null }, select: { id: true } });
  if (!portal) throw notFound("Portal");
  const rows = await db.recurringRequest.findMany({
    where: { orgId: viewer.orgId, portalId, portal: { deletedAt: null } },
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
    include: { _count: { select: { occurrences: true } } },
  });
  return rows.map((r) => {
    const spec = parseRequestSpec(r.spec);
    const next = r.status === "active" ? occursAt(r, nextPeriod(r, now)) : null;
    return {
      id: r.id,
      title: spec.title,
      actionType: spec.action_type,
      frequency: r.frequency,
      dayOfMonth: r.dayOfMonth,
      status: r.status,
      nextOccurrence: next,
      occurrences: r._count.occurrences,
    };
  });
}
