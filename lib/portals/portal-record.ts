import { portalScope, portalWhere, type PortalAction } from "@/lib/access/policy";
import type { Viewer } from "@/lib/access/viewer";
import type { InferResult } from "kysely";
import { jsonBuildObject } from "kysely/helpers/postgres";
import { db } from "@/lib/db";
import type { Prisma, PartnerLinkStatus } from "@/lib/generated/prisma/client";
import type { Cursor } from "@/lib/pagination";
import { isoText, rows, sql } from "@/lib/sql";

// A portal as every reader needs it (API responses, web pages): its row, workflow state,
// external ids, partner link and task counters. Counters are counted from the non-deleted tasks
// at read time, for a whole page at once (no query per portal).

const include = {
  workflowState: { select: { id: true, name: true } },
  externalIds: { select: { system: true, value: true }, orderBy: { systemKey: "asc" } },
  partnerLink: { select: { status: true, customerId: true, tenantId: true, displayName: true, verifiedAt: true, error: true } },
} satisfies Prisma.PortalInclude;

export interface PartnerLinkRecord {
  status: PartnerLinkStatus;
  customerId: string;
  tenantId: string | null;
  displayName: string | null;
  verifiedAt: Date | null;
  error: string | null;
}

export interface PortalRecord {
  id: string;
  orgId: string;
  name: string;
  tags: string[];
  archived: boolean;
  isTemplate: boolean;
  workflowState: { id: string; name: string } | null;
  externalSystemIds: Record<string, string>;
  /** null when it does not apply: the partner integration is not connected or the portal never had a partner id (D9). */
  partnerLink: PartnerLinkRecord | null;
  openTaskCount: number;
  doneTaskCount: number;
  lastActivityAt: Date | null;
  createdAt: Date;
  createdById: string | null;
}

/** Active portals matching `where` on which the viewer may do `action`, as records, in the given order. */
export async function loadPortalRecords({
  viewer,
  action = "view",
  where = {},
  take,
}: {
  viewer: Viewer;
  action?: PortalAction;
  where?: Prisma.PortalWhereInput;
  take?: number;
}): Promise<PortalRecord[]> {
  const orgId = viewer.orgId;
  const rows = await db.portal.findMany({
    where: { AND: [where, portalWhere(viewer, action)] },
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
    take,
    include,
  });
  if (rows.length === 0) return [];
  const ids = rows.map((r) => r.id);
  const [counts, connection] = await Promise.all([
    db.task.groupBy({ by: ["portalId", "status"], where: { orgId, portalId: { in: ids }, deletedAt: null }, _count: { _all: true } }),
    db.partnerConnection.findFirst({ where: { orgId, status: "connected" }, select: { id: true } }),
  ]);
  const byPortalStatus = new Map(counts.map((c) => [`${c.portalId}:${c.status}`, c._count._all]));
  const countOf = (portalId: string, status: "Open" | "Done") => byPortalStatus.get(`${portalId}:${status}`) ?? 0;

  return rows.map((r) => ({
    id: r.id,
    orgId: r.orgId,
    name: r.name,
    tags: r.tags,
    archived: r.archived,
    isTemplate: r.isTemplate,
    workflowState: r.workflowState,
    externalSystemIds: Object.fromEntries(r.externalIds.map((e) => [e.system, e.value])),
    partnerLink: connection ? r.partnerLink : null,
    openTaskCount: countOf(r.id, "Open"),
    doneTaskCount: countOf(r.id, "Done"),
    lastActivityAt: r.lastActivityAt,
    createdAt: r.createdAt,
    createdById: r.createdById,
  }));
}

/**
 * A portal as loadPortalPage reads it: its response's values, with timestamps as ISO 8601 text in
 * UTC with milliseconds (what Date#toISOString writes), so that the API's list builds its
 * response from rows without making a Date (lib/portals/to-response.ts toPortalBody).
 */
export type PortalRow = InferResult<ReturnType<typeof portalPageStatement>>[number];

/** A row's workflow state: both columns, or none. */
export const workflowStateOf = (id: string | null, name: string | null): PortalRecord["workflowState"] => (id !== null && name !== null ? { id, name } : null);

/** The record of a row (one portal's reads: loadPortal). */
export function portalRecordOf({ workflowStateId, workflowStateName, ...row }: PortalRow): PortalRecord {
  return {
    ...row,
    workflowState: workflowStateOf(workflowStateId, workflowStateName),
    partnerLink: row.partnerLink ? { ...row.partnerLink, verifiedAt: row.partnerLink.verifiedAt === null ? null : new Date(row.partnerLink.verifiedAt) } : null,
    lastActivityAt: row.lastActivityAt === null ? null : new Date(row.lastActivityAt),
    createdAt: new Date(row.createdAt),
  };
}

/**
 * Portals on which the viewer may do `action`, as loadPortalRecords returns them (but as rows,
 * see PortalRow), in one statement (the API's portal list and single portal reads, instead of six
 * queries): with workflow state, external ids, partner link (only while the partner
 * integration is connected, D9) and task counters. Ordered by creation (D5), strictly after
 * `cursor`. Sent through lib/sql.ts `rows`, straight through pg outside a transaction: Prisma's raw
 * query path and row mapping cost more CPU than the statement itself. Objects are built by PostgreSQL (json_build_object,
 * json_object_agg) and parsed by pg in one JSON.parse each.
 */
export async function loadPortalPage({
  viewer,
  action = "view",
  ...filters
}: {
  viewer: Viewer;
  action?: PortalAction;
} & PageFilters): Promise<PortalRow[]> {
  const { orgId, portalIds } = portalScope(viewer, action);
  return rows(portalPageStatement({ orgId, portalIds, ...filters }));
}

interface PageFilters {
  /** Only this portal (loadPortal). */
  portalId?: string;
  /** Templates only (true), portals only (false), or both (undefined). */
  templatesOnly?: boolean;
  /** Only the portal holding this (system key, value) pair. */
  externalId?: { systemKey: string; value: string };
  cursor?: Cursor;
  take?: number;
}

function portalPageStatement({
  orgId,
  portalIds,
  portalId,
  templatesOnly,
  externalId,
  cursor,
  take,
}: { orgId: string; portalIds: string[] | null | undefined } & PageFilters) {
  return (
    sql
      .selectFrom("Portal as p")
      .leftJoin("WorkflowState as w", "w.id", "p.workflowStateId")
      .crossJoinLateral((eb) =>
        eb
          .selectFrom("Task as t")
          .select((t) => [
            t.cast<number>(t.fn.countAll().filterWhere("t.status", "=", "Open"), "integer").as("open"),
            t.cast<number>(t.fn.countAll().filterWhere("t.status", "=", "Done"), "integer").as("done"),
          ])
          .whereRef("t.portalId", "=", "p.id")
          .whereRef("t.orgId", "=", "p.orgId")
          .where("t.deletedAt", "is", null)
          .as("tc"),
      )
      .select((eb) => [
        "p.id",
        "p.orgId",
        "p.name",
        "p.tags",
        "p.archived",
        "p.isTemplate",
        isoText(eb.ref("p.lastActivityAt")).as("lastActivityAt"),
        isoText(eb.ref("p.createdAt")).as("createdAt"),
        "p.createdById",
        "w.id as workflowStateId",
        "w.name as workflowStateName",
        // External ids as one JSON object per portal, in system-key order as the ORM read gives them
        // (json keeps the aggregation's order; a portal has one id per system key, so no key repeats).
        eb.fn
          .coalesce(
            eb
              .selectFrom("ExternalSystemId as e")
              .select((e) => e.fn.agg<Record<string, string>>("json_object_agg", ["e.system", "e.value"]).orderBy("e.systemKey").as("ids"))
              .whereRef("e.portalId", "=", "p.id"),
            eb.cast<Record<string, string>>(eb.val("{}"), "json"),
          )
          .as("externalSystemIds"),
        // Only while the partner integration is connected (D9).
        eb
          .case()
          .when(
            eb.exists(eb.selectFrom("PartnerConnection as pc").select(eb.lit(1).as("one")).where("pc.orgId", "=", orgId).where("pc.status", "=", "connected")),
          )
          .then(
            eb
              .selectFrom("PartnerLink as l")
              .select((l) =>
                jsonBuildObject({
                  status: l.ref("l.status"),
                  customerId: l.ref("l.customerId"),
                  tenantId: l.ref("l.tenantId"),
                  displayName: l.ref("l.displayName"),
                  verifiedAt: isoText(l.ref("l.verifiedAt")),
                  error: l.ref("l.error"),
                }).as("link"),
              )
              .whereRef("l.portalId", "=", "p.id"),
          )
          .end()
          .as("partnerLink"),
        "tc.open as openTaskCount",
        "tc.done as doneTaskCount",
      ])
      .where("p.orgId", "=", orgId)
      .where("p.deletedAt", "is", null)
      .$if(templatesOnly !== undefined, (q) => q.where("p.isTemplate", "=", templatesOnly!))
      .$if(portalId !== undefined, (q) => q.where("p.id", "=", portalId!))
      .$if(!!portalIds, (q) => q.where((eb) => eb("p.id", "=", eb.fn.any(eb.val(portalIds!)))))
      .$if(!!externalId, (q) =>
        q.where((eb) =>
          eb.exists(
            eb
              .selectFrom("ExternalSystemId as x")
              .select(eb.lit(1).as("one"))
              .whereRef("x.portalId", "=", "p.id")
              .where("x.orgId", "=", orgId)
              .where("x.systemKey", "=", externalId!.systemKey)
              .where("x.value", "=", externalId!.value),
          ),
        ),
      )
      // Strictly after the cursor in creation order (D5).
      .$if(!!cursor, (q) => q.where((eb) => eb(eb.refTuple("p.createdAt", "p.id"), ">", eb.tuple(cursor!.createdAt, cursor!.id))))
      .orderBy("p.createdAt")
      .orderBy("p.id")
      .$if(take !== undefined, (q) => q.limit(take!))
  );
}
