import { z } from "zod";
import { portalWhere, requireAnyPortal } from "@/lib/access/policy";
import type { Viewer } from "@/lib/access/viewer";
import { db } from "@/lib/db";
import type { Prisma } from "@/lib/generated/prisma/client";
import { isUuid } from "@/lib/ids";

// The web portal list: search by name, filters, three sorts and keyset pagination in
// both directions. One query reads the page (guest counts as a sub-select, the workflow state and
// responsible member with it, for the page's rows at once), one groupBy the task counters and next
// due dates of that page, and one counts the matches (an index scan of the organization's
// portals), so a page costs about the same with 100 portals or 10,000 (the default sort walks the
// (orgId, createdAt, id) index backwards, name sort the (orgId, name, id) one).
// The API list is lib/portals/list-portals.ts (D5 order); this one is the web's only.

const PORTAL_SORTS = ["name", "created", "activity"] as const;
type PortalSort = (typeof PORTAL_SORTS)[number];
const PORTAL_STATUSES = ["active", "archived", "all"] as const;
const PAGE_SIZE = 50;

const optionalText = z
  .string()
  .trim()
  .max(200)
  .optional()
  .transform((v) => (v ? v : undefined));

/** The list's URL query; anything unreadable falls back to the default (a shared link never breaks). */
export const PortalSearchSchema = z.object({
  q: optionalText.catch(undefined),
  tag: optionalText.catch(undefined),
  /** A workflow state id, or "none" for portals without one. */
  state: z
    .string()
    .refine((v) => v === "none" || isUuid(v))
    .optional()
    .catch(undefined),
  status: z.enum(PORTAL_STATUSES).default("active").catch("active"),
  templates: z
    .enum(["1"])
    .optional()
    .catch(undefined)
    .transform((v) => v === "1"),
  sort: z.enum(PORTAL_SORTS).default("name").catch("name"),
  after: z.string().max(500).optional().catch(undefined),
  before: z.string().max(500).optional().catch(undefined),
});
export type PortalSearch = z.output<typeof PortalSearchSchema>;

/** Where a page starts: the sort value and id of the row next to it. */
interface Position {
  v: string | null;
  id: string;
}

function encodePosition(p: Position): string {
  return Buffer.from(JSON.stringify([p.v, p.id])).toString("base64url");
}

function decodePosition(value: string | undefined): Position | null {
  if (!value) return null;
  try {
    const parsed: unknown = JSON.parse(Buffer.from(value, "base64url").toString("utf8"));
    if (!Array.isArray(parsed) || parsed.length !== 2) return null;
    const [v, id] = parsed as unknown[];
    if ((v !== null && typeof v !== "string") || !isUuid(id)) return null;
    return { v, id };
  } catch {
    return null;
  }
}

export interface PortalListRow {
  id: string;
  name: string;
  tags: string[];
  archived: boolean;
  isTemplate: boolean;
  workflowState: string | null;
  openTaskCount: number;
  doneTaskCount: number;
  guestCount: number;
  /** The earliest due date of the portal's open tasks (null: none has one). */
  nextDueAt: Date | null;
  /** The member who looks after the portal (null: nobody named). */
  responsible: { name: string | null; email: string } | null;
  lastActivityAt: Date | null;
  createdAt: Date;
}

type Cmp = "gt" | "lt";

/** The sort's column order for reading forwards (`flip`: backwards, for the previous page). */
function orderOf(sort: PortalSort, flip: boolean): Prisma.PortalOrderByWithRelationInput[] {
  const asc = (forwardAsc: boolean): "asc" | "desc" => (forwardAsc !== flip ? "asc" : "desc");
  if (sort === "name") return [{ name: asc(true) }, { id: asc(true) }];
  if (sort === "created") return [{ createdAt: asc(false) }, { id: asc(false) }];
  // Most recent activity first, never-active portals last (and first when reading backwards).
  return [{ lastActivityAt: { sort: asc(false), nulls: flip ? "first" : "last" } }, { id: asc(false) }];
}

/** Rows strictly beyond `p` in the reading order. */
function beyond(sort: PortalSort, p: Position, flip: boolean): Prisma.PortalWhereInput {
  const forwardAsc = sort === "name";
  const cmp: Cmp = forwardAsc !== flip ? "gt" : "lt";
  if (sort === "name") return { OR: [{ name: { [cmp]: p.v ?? "" } }, { name: p.v ?? "", id: { [cmp]: p.id } }] };
  if (sort === "created") {
    const at = new Date(p.v ?? 0);
    return { OR: [{ createdAt: { [cmp]: at } }, { createdAt: at, id: { [cmp]: p.id } }] };
  }
  // Activity: nulls come after every date reading forwards, before them reading backwards.
  if (p.v === null)
    return flip ? { OR: [{ lastActivityAt: { not: null } }, { lastActivityAt: null, id: { gt: p.id } }] } : { lastActivityAt: null, id: { lt: p.id } };
  const at = new Date(p.v);
  const dated: Prisma.PortalWhereInput[] = [{ lastActivityAt: { [cmp]: at } }, { lastActivityAt: at, id: { [cmp]: p.id } }];
  return { OR: flip ? dated : [...dated, { lastActivityAt: null }] };
}

function positionOf(sort: PortalSort, row: { id: string; name: string; createdAt: Date; lastActivityAt: Date | null }): Position {
  const v = sort === "name" ? row.name : sort === "created" ? row.createdAt.toISOString() : (row.lastActivityAt?.toISOString() ?? null);
  return { v, id: row.id };
}

/**
 * One page of the organization's portals (or templates) as the web list shows them, with the
 * cursors of the pages before and after it (null at either end) and how many match in all.
 */
export async function searchPortals({ viewer, search, pageSize = PAGE_SIZE }: { viewer: Viewer; search: PortalSearch; pageSize?: number }) {
  requireAnyPortal(viewer, "view");
  const { q, tag, state, status, templates, sort } = search;
  const after = decodePosition(search.after);
  const before = after ? null : decodePosition(search.before);
  const flip = before !== null;
  const position = after ?? before;
  const filters: Prisma.PortalWhereInput[] = [
    portalWhere(viewer, "view"),
    { isTemplate: templates },
    status === "all" ? {} : { archived: status === "archived" },
    q ? { name: { contains: q, mode: "insensitive" } } : {},
    tag ? { tags: { has: tag } } : {},
    state === "none" ? { workflowStateId: null } : state ? { workflowStateId: state } : {},
  ];
  const where: Prisma.PortalWhereInput = { AND: [...filters, position ? beyond(sort, position, flip) : {}] };
  const [rows, total] = await Promise.all([
    db.portal.findMany({
      where,
      orderBy: orderOf(sort, flip),
      take: pageSize + 1,
      select: {
        id: true,
        name: true,
        tags: true,
        archived: true,
        isTemplate: true,
        lastActivityAt: true,
        createdAt: true,
        workflowState: { select: { name: true } },
        responsibleMember: { select: { name: true, email: true } },
        _count: { select: { guests: true } },
      },
    }),
    // Every portal matching the filters, on all pages ("1,000 portals").
    db.portal.count({ where: { AND: filters } }),
  ]);
  const more = rows.length > pageSize;
  const page = rows.slice(0, pageSize);
  if (flip) page.reverse();
  const counts = page.length
    ? await db.task.groupBy({
        by: ["portalId", "status"],
        where: { orgId: viewer.orgId, portalId: { in: page.map((r) => r.id) }, deletedAt: null },
        _count: { _all: true },
        _min: { dueDate: true },
      })
    : [];
  const groupOf = (portalId: string, s: "Open" | "Done") => counts.find((c) => c.portalId === portalId && c.status === s);
  const countOf = (portalId: string, s: "Open" | "Done") => groupOf(portalId, s)?._count._all ?? 0;
  const items: PortalListRow[] = page.map((r) => ({
    id: r.id,
    name: r.name,
    tags: r.tags,
    archived: r.archived,
    isTemplate: r.isTemplate,
    workflowState: r.workflowState?.name ?? null,
    openTaskCount: countOf(r.id, "Open"),
    doneTaskCount: countOf(r.id, "Done"),
    guestCount: r._count.guests,
    nextDueAt: groupOf(r.id, "Open")?._min.dueDate ?? null,
    responsible: r.responsibleMember,
    lastActivityAt: r.lastActivityAt,
    createdAt: r.createdAt,
  }));
  const first = page[0];
  const last = page.at(-1);
  // Forwards: a next page when a row was left over; a previous one when this page did not start at the top.
  const hasNext = flip ? position !== null : more;
  const hasPrevious = flip ? more : position !== null;
  return {
    items,
    total,
    next: hasNext && last ? encodePosition(positionOf(sort, last)) : null,
    previous: hasPrevious && first ? encodePosition(positionOf(sort, first)) : null,
  };
}
