import { requirePortal } from "@/lib/access/policy";
import { actorOf, type Viewer } from "@/lib/access/viewer";
import { recordAudit } from "@/lib/audit/record-audit";
import { db, runInTransaction } from "@/lib/db";
import { invalidRequest, notFound } from "@/lib/errors";
import { isUuid } from "@/lib/ids";
import { rows, sql } from "@/lib/sql";
import { checkRequestSpec, makeRequestTask } from "./make-request-task";
import { parseRequestSpec } from "./parse-spec";
import { firstPeriod } from "./recurrence";
import { RecurrenceSchema, type Recurrence, type RequestSpecInput } from "./schemas";

const MAX_TEMPLATE_REQUESTS = 100;

async function templateOf(viewer: Viewer, portalId: string) {
  requirePortal(viewer, portalId, "manageTasks");
  if (!isUuid(portalId)) throw notFound("Portal");
  const portal = await db.portal.findFirst({ where: { id: portalId, orgId: viewer.orgId, deletedAt: null }, select: { id: true, isTemplate: true } });
  if (!portal) throw notFound("Portal");
  if (!portal.isTemplate) throw invalidRequest("portalId: Only a template has a request list");
  return portal;
}

/**
 * Adds a request to a template's request list (members and admins): every portal created from the
 * template gets it as a task (due dates relative to the portal's creation), or, with a
 * recurrence, as a recurring request of its own.
 */
export async function addTemplateRequest({
  viewer,
  portalId,
  spec: specInput,
  recurrence,
}: {
  viewer: Viewer;
  portalId: string;
  spec: RequestSpecInput;
  recurrence?: Recurrence | null;
}) {
  await templateOf(viewer, portalId);
  const spec = parseRequestSpec(specInput);
  const parsed = recurrence ? RecurrenceSchema.safeParse(recurrence) : null;
  if (parsed && !parsed.success) throw invalidRequest(`recurrence.${parsed.error.issues[0]!.path.join(".")}: ${parsed.error.issues[0]!.message}`);
  await checkRequestSpec(viewer, spec);
  return runInTransaction(async (tx) => {
    await rows(sql.selectFrom("Portal").select("id").where("id", "=", portalId).forUpdate(), { tx });
    const count = await tx.templateRequest.count({ where: { portalId } });
    if (count >= MAX_TEMPLATE_REQUESTS) throw invalidRequest(`portalId: A template holds at most ${MAX_TEMPLATE_REQUESTS} requests`);
    const row = await tx.templateRequest.create({
      data: {
        orgId: viewer.orgId,
        portalId,
        position: count,
        spec,
        frequency: parsed?.data?.frequency ?? null,
        dayOfMonth: parsed?.data?.day_of_month ?? null,
      },
    });
    await recordAudit(tx, {
      orgId: viewer.orgId,
      portalId,
      actor: actorOf(viewer),
      action: "template_request.added",
      targetType: "template_request",
      targetId: row.id,
      metadata: { title: spec.title, action_type: spec.action_type, frequency: row.frequency },
    });
    return { templateRequestId: row.id };
  });
}

/** Removes a request from a template's request list (portals made from it keep their tasks). */
export async function removeTemplateRequest({ viewer, templateRequestId }: { viewer: Viewer; templateRequestId: string }) {
  if (!isUuid(templateRequestId)) throw notFound("Template request");
  return runInTransaction(async (tx) => {
    const row = await tx.templateRequest.findFirst({ where: { id: templateRequestId, orgId: viewer.orgId, portal: { deletedAt: null } } });
    if (!row) throw notFound("Template request");
    requirePortal(viewer, row.portalId, "manageTasks", "Template request");
    await tx.templateRequest.delete({ where: { id: row.id } });
    await recordAudit(tx, {
      orgId: viewer.orgId,
      portalId: row.portalId,
      actor: actorOf(viewer),
      action: "template_request.removed",
      targetType: "template_request",
      targetId: row.id,
      metadata: {},
    });
    return { removed: true };
  });
}

/** A template's request list in its order. */
export async function listTemplateRequests({ viewer, portalId }: { viewer: Viewer; portalId: string }) {
  await templateOf(viewer, portalId);
  const rows = await db.templateRequest.findMany({ where: { orgId: viewer.orgId, portalId }, orderBy: [{ position: "asc" }, { createdAt: "asc" }] });
  return rows.map((r) => {
    const spec = parseRequestSpec(r.spec);
    return { id: r.id, spec, frequency: r.frequency, dayOfMonth: r.dayOfMonth };
  });
}

/**
 * A new portal's share of its template's request list, in the transaction that creates the portal
 * (lib/portals/create-portal.ts): each one-off request becomes a task through createTask (one
 * `task.created` each; due dates count from `now`, assigned to nobody since the portal has no
 * guests yet), each recurring one a recurring request of the portal. Making them is part of
 * creating the portal: a token allowed to create portals needs no task scope for it.
 */
export async function applyTemplateRequests({
  viewer,
  templateId,
  portalId,
  now = new Date(),
}: {
  viewer: Viewer;
  templateId: string;
  portalId: string;
  now?: Date;
}) {
  const rows = await db.templateRequest.findMany({
    where: { orgId: viewer.orgId, portalId: templateId },
    orderBy: [{ position: "asc" }, { createdAt: "asc" }],
  });
  const acting: Viewer =
    viewer.kind === "user" && viewer.client ? { ...viewer, client: { ...viewer.client, scopes: [...viewer.client.scopes, "task:write"] } } : viewer;
  let tasks = 0;
  let schedules = 0;
  for (const row of rows) {
    const spec = parseRequestSpec(row.spec);
    if (row.frequency && row.dayOfMonth) {
      await db.recurringRequest.create({
        data: {
          orgId: viewer.orgId,
          portalId,
          spec,
          frequency: row.frequency,
          dayOfMonth: row.dayOfMonth,
          startPeriod: firstPeriod(row.dayOfMonth, now),
          createdById: viewer.kind === "user" ? viewer.userId : null,
        },
      });
      schedules++;
    } else {
      await makeRequestTask({ viewer: acting, portalId, spec, anchor: now, guestIds: [] });
      tasks++;
    }
  }
  return { tasks, schedules };
}
