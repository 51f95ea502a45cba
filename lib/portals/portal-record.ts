import { portalScope, portalWhere, type PortalAction } from "@/lib/access/policy";
import type { Viewer } from "@/lib/access/viewer";
import { db, query } from "@/lib/db";
import { Prisma, type PartnerLinkStatus } from "@/lib/generated/prisma/client";
import type { Cursor } from "@/lib/pagination";

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
export interface PortalRow extends Omit<PortalRecord, "workflowState" | "partnerLink" | "lastActivityAt" | "createdAt"> {
  workflowStateId: string | null;
  workflowStateName: string | null;
  partnerLink: (Omit<PartnerLinkRecord, "verifiedAt"> & { verifiedAt: string | null }) | null;
  lastActivityAt: string | null;
  createdAt: string;
}

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

/** A timestamp(3) column (UTC wall time) as Date#toISOString writes it. */
const iso = (column: string) => `to_char(${column}, 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/**
 * Portals on which the viewer may do `action`, as loadPortalRecords returns them (but as rows,
 * see PortalRow), in one statement (the API's portal list and single portal reads, instead of six
 * queries): with workflow state, external ids, partner link (only while the partner
 * integration is connected, D9) and task counters. Ordered by creation (D5), strictly after
 * `cursor`. Sent straight through pg (lib/db `query`): Prisma's raw query path and row mapping cost
 * more CPU than the statement itself. Objects are built by PostgreSQL (json_build_object,
 * json_object_agg) and parsed by pg in one JSON.parse each.
 */
export async function loadPortalPage({
  viewer,
  action = "view",
  portalId,
  templatesOnly,
  externalId,
  cursor,
  take,
}: {
  viewer: Viewer;
  action?: PortalAction;
  /** Only this portal (loadPortal). */
  portalId?: string;
  /** Templates only (true), portals only (false), or both (undefined). */
  templatesOnly?: boolean;
  /** Only the portal holding this (system key, value) pair. */
  externalId?: { systemKey: string; value: string };
  cursor?: Cursor;
  take?: number;
}): Promise<PortalRow[]> {
  const { orgId, portalIds } = portalScope(viewer, action);
  const values: unknown[] = [orgId];
  /** The next placeholder, for `value`. */
  const param = (value: unknown) => `$${values.push(value)}`;
  const where = [`p."orgId" = $1::uuid AND p."deletedAt" IS NULL`];
  if (templatesOnly !== undefined) where.push(`p."isTemplate" = ${param(templatesOnly)}::boolean`);
  if (portalId !== undefined) where.push(`p."id" = ${param(portalId)}::uuid`);
  if (portalIds) where.push(`p."id" = ANY(${param(portalIds)}::uuid[])`);
  if (externalId) {
    where.push(`EXISTS (SELECT 1 FROM "ExternalSystemId" x
      WHERE x."portalId" = p."id" AND x."orgId" = $1::uuid AND x."systemKey" = ${param(externalId.systemKey)} AND x."value" = ${param(externalId.value)})`);
  }
  // timestamp(3) columns hold UTC: the ISO string cast to timestamp keeps its UTC wall time.
  if (cursor) where.push(`(p."createdAt", p."id") > (${param(cursor.createdAt.toISOString())}::timestamp, ${param(cursor.id)}::uuid)`);
  const limit = take === undefined ? "" : `LIMIT ${param(take)}::int`;
  // External ids as one JSON object per portal, in system-key order as the ORM read gives them
  // (json keeps the aggregation's order; a portal has one id per system key, so no key repeats).
  return query<PortalRow>(
    `SELECT p."id", p."orgId", p."name", p."tags", p."archived", p."isTemplate",
      ${iso(`p."lastActivityAt"`)} AS "lastActivityAt", ${iso(`p."createdAt"`)} AS "createdAt", p."createdById",
      w."id" AS "workflowStateId", w."name" AS "workflowStateName",
      COALESCE((SELECT json_object_agg(e."system", e."value" ORDER BY e."systemKey") FROM "ExternalSystemId" e WHERE e."portalId" = p."id"), '{}') AS "externalSystemIds",
      CASE WHEN EXISTS (SELECT 1 FROM "PartnerConnection" pc WHERE pc."orgId" = $1::uuid AND pc."status" = 'connected') THEN (
        SELECT json_build_object('status', l."status", 'customerId', l."customerId", 'tenantId', l."tenantId", 'displayName', l."displayName",
          'verifiedAt', ${iso(`l."verifiedAt"`)}, 'error', l."error")
        FROM "PartnerLink" l WHERE l."portalId" = p."id"
      ) END AS "partnerLink",
      tc."open" AS "openTaskCount", tc."done" AS "doneTaskCount"
    FROM "Portal" p
    LEFT JOIN "WorkflowState" w ON w."id" = p."workflowStateId"
    CROSS JOIN LATERAL (
      SELECT (count(*) FILTER (WHERE t."status" = 'Open'))::int AS "open", (count(*) FILTER (WHERE t."status" = 'Done'))::int AS "done"
      FROM "Task" t WHERE t."portalId" = p."id" AND t."orgId" = p."orgId" AND t."deletedAt" IS NULL
    ) tc
    WHERE ${where.join(" AND ")}
    ORDER BY p."createdAt", p."id"
    ${limit}`,
    values,
  );
}
