import { randomUUID } from "node:crypto";
import { z } from "zod";
import { requireOrg } from "@/lib/access/policy";
import { actorOf, userIdOf, type Viewer } from "@/lib/access/viewer";
import { recordAudit } from "@/lib/audit/record-audit";
import { db, runInTransaction } from "@/lib/db";
import { invalidRequest } from "@/lib/errors";
import { kickEventRelay } from "@/lib/events/event-relay";
import { recordEvent } from "@/lib/events/record-event";
import type { Prisma } from "@/lib/generated/prisma/client";
import { isUuid } from "@/lib/ids";
import { rows, sql } from "@/lib/sql";
import { checkRequestSpec } from "./make-request-task";
import { parseRequestSpec, specError } from "./parse-spec";
import { MAX_BULK_PORTALS, type RequestSpecInput } from "./schemas";

/** Which portals: the ids picked in the list, or every portal matching the list's filters. */
const BulkTargetSchema = z.union([
  z.strictObject({ portal_ids: z.array(z.string()).min(1).max(MAX_BULK_PORTALS) }),
  z.strictObject({
    filter: z.strictObject({
      q: z.string().trim().max(200).optional(),
      tag: z.string().trim().max(200).optional(),
      state: z.string().optional(),
      status: z.enum(["active", "archived", "all"]).default("active"),
    }),
  }),
]);
export type BulkTarget = z.input<typeof BulkTargetSchema>;

function targetWhere(orgId: string, target: z.output<typeof BulkTargetSchema>): Prisma.PortalWhereInput {
  const base: Prisma.PortalWhereInput = { orgId, deletedAt: null, isTemplate: false };
  if ("portal_ids" in target) return { ...base, id: { in: target.portal_ids.filter(isUuid) } };
  const { q, tag, state, status } = target.filter;
  return {
    ...base,
    ...(status === "all" ? {} : { archived: status === "archived" }),
    ...(q ? { name: { contains: q, mode: "insensitive" as const } } : {}),
    ...(tag ? { tags: { has: tag } } : {}),
    ...(state === "none" ? { workflowStateId: null } : state && isUuid(state) ? { workflowStateId: state } : {}),
  };
}

/**
 * Sends one request to many portals (members and admins): records the bulk request with one
 * pending item per portal, its audit row and the command that starts the job, in one
 * transaction; the job (inngest/functions/bulk-request.ts) then makes the tasks. The same
 * `idempotencyKey` (the form submission's) returns the bulk request it made the first time and
 * records nothing new, however often it is pressed. Ids that are not active portals of the
 * organization are left out; none left is a 400.
 */
export async function createBulkRequest({
  viewer,
  idempotencyKey,
  target,
  spec: specInput,
}: {
  viewer: Viewer;
  idempotencyKey: string;
  target: BulkTarget;
  spec: RequestSpecInput;
}): Promise<{ bulkRequestId: string; created: boolean }> {
  requireOrg(viewer, "sendBulkRequests");
  const { orgId } = viewer;
  if (!/^[\w-]{8,100}$/.test(idempotencyKey)) throw invalidRequest("idempotencyKey: 8-100 letters, digits, - or _");
  const existing = await db.bulkRequest.findUnique({ where: { orgId_idempotencyKey: { orgId, idempotencyKey } }, select: { id: true } });
  if (existing) return { bulkRequestId: existing.id, created: false };

  const parsedTarget = BulkTargetSchema.safeParse(target);
  if (!parsedTarget.success) throw invalidRequest(`target: ${parsedTarget.error.issues[0]!.message}`);
  const spec = parseRequestSpec(specInput);
  await checkRequestSpec(viewer, spec);
  const portals = await db.portal.findMany({
    where: targetWhere(orgId, parsedTarget.data),
    select: { id: true },
    orderBy: [{ name: "asc" }, { id: "asc" }],
    take: MAX_BULK_PORTALS + 1,
  });
  if (portals.length === 0) throw specError("target", "No portal to send to");
  if (portals.length > MAX_BULK_PORTALS) throw specError("target", `At most ${MAX_BULK_PORTALS} portals at once`);

  const result = await runInTransaction(async (tx) => {
    // A concurrent press with the same key: the unique key lets one insert through; the other reads it.
    const now = new Date();
    const inserted = await rows(
      sql
        .insertInto("BulkRequest")
        .values({
          id: randomUUID(),
          orgId,
          idempotencyKey,
          createdById: userIdOf(viewer),
          spec: JSON.stringify(spec),
          status: "running",
          sentAt: now,
          total: portals.length,
          createdAt: now,
          updatedAt: now,
        })
        .onConflict((conflict) => conflict.columns(["orgId", "idempotencyKey"]).doNothing())
        .returning("id"),
      { tx },
    );
    const row = inserted[0];
    if (!row) {
      const other = await tx.bulkRequest.findUniqueOrThrow({ where: { orgId_idempotencyKey: { orgId, idempotencyKey } }, select: { id: true } });
      return { bulkRequestId: other.id, created: false };
    }
    await tx.bulkRequestItem.createMany({ data: portals.map((p) => ({ bulkRequestId: row.id, portalId: p.id })) });
    await recordAudit(tx, {
      orgId,
      actor: actorOf(viewer),
      action: "bulk_request.created",
      targetType: "bulk_request",
      targetId: row.id,
      metadata: { title: spec.title, action_type: spec.action_type, portals: portals.length },
    });
    await recordEvent(tx, { orgId, type: "bulk-request/send.requested", data: { bulk_request_id: row.id, org_id: orgId } });
    return { bulkRequestId: row.id, created: true };
  });
  if (result.created) kickEventRelay();
  return result;
}
