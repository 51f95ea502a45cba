import { z } from "zod";
import { requireOrg } from "@/lib/access/policy";
import type { UserViewer, Viewer } from "@/lib/access/viewer";
import { db } from "@/lib/db";
import { forbidden } from "@/lib/errors";
import type { InboxKind } from "@/lib/generated/prisma/client";
import { isUuid } from "@/lib/ids";
import { decodeCursor, encodeCursor, type Cursor } from "@/lib/pagination";
import { portalPath } from "@/lib/links";
import { rows, sql } from "@/lib/sql";

// The firm's inbox: what clients did across the organization's portals, newest first. Items are
// InboxItem rows written with the client's change (lib/inbox/record-activity.ts); overdue requests
// (an Open task whose due date has passed) are computed from Task at read time, so they leave the
// inbox by themselves when the task is done, deleted or given a later date. Both sources are read
// with the same keyset (time, id) descending, each limited to one page plus one, and merged.

const INBOX_KINDS = ["upload", "answer", "form", "signed", "done", "message"] as const satisfies readonly InboxKind[];
export type InboxEntryKind = InboxKind | "overdue";
export const INBOX_FILTER_KINDS = [...INBOX_KINDS, "overdue"] as const;

const INBOX_PAGE_SIZE = 50;
/** The unread count stops counting here: the header shows "99+". */
const UNREAD_COUNT_CAP = 100;

const uuidOrBlank = z
  .string()
  .optional()
  .transform((v) => (v && v.trim() ? v.trim() : undefined))
  .refine((v) => v === undefined || isUuid(v), "Choose from the list");

/** The inbox's filters as the page's query string gives them; unknown values are refused by field. */
export const InboxFilterSchema = z.object({
  portal: uuidOrBlank,
  kind: z
    .string()
    .optional()
    .transform((v) => (v ? v : undefined))
    .pipe(z.enum(INBOX_FILTER_KINDS, { error: "Choose a kind from the list" }).optional()),
  assignee: uuidOrBlank,
  mine: z
    .string()
    .optional()
    .transform((v) => v === "1" || v === "true" || v === "on"),
  unread: z
    .string()
    .optional()
    .transform((v) => v === "1" || v === "true" || v === "on"),
  cursor: z
    .string()
    .optional()
    .transform((v, ctx) => {
      if (!v) return undefined;
      const c = decodeCursor(v);
      if (!c) {
        ctx.addIssue({ code: "custom", message: "This page link is out of date: start from the first page" });
        return z.NEVER;
      }
      return c;
    }),
});
export type InboxFilter = z.output<typeof InboxFilterSchema>;

export interface InboxEntry {
  id: string;
  kind: InboxEntryKind;
  portalId: string;
  portalName: string;
  title: string;
  at: Date;
  /** The client who did it (null for an overdue request). */
  actor: string | null;
  /** Seen by this member; overdue requests are always "seen" (they stay until the task is done). */
  seen: boolean;
  taskId: string | null;
  /** Where the item leads: the message in the portal's thread, the file, the request. */
  href: string;
}

/** The inbox's member: only people have a seen state. */
export function inboxMember(viewer: Viewer): UserViewer {
  requireOrg(viewer, "viewInbox");
  if (viewer.kind !== "user") throw forbidden("The inbox belongs to a member");
  return viewer;
}

/** Up to this time every item is seen by the member ("mark all seen"; before that, the time they joined). */
async function seenWatermark(viewer: UserViewer): Promise<Date> {
  const m = await db.membership.findUnique({
    where: { orgId_userId: { orgId: viewer.orgId, userId: viewer.userId } },
    select: { inboxSeenAt: true, createdAt: true },
  });
  return m?.inboxSeenAt ?? m?.createdAt ?? new Date(0);
}

export function inboxHref(
  orgId: string,
  e: { kind: InboxEntryKind; portalId: string; taskId: string | null; fileId: string | null; messageId: string | null },
): string {
  const vault = `/org/${orgId}/vault/${e.portalId}`;
  if (e.kind === "message") return `${vault}/messages${e.messageId ? `#message-${e.messageId}` : ""}`;
  if (e.taskId) return `${vault}/tasks/${e.taskId}`;
  if (e.fileId) return `${portalPath(orgId, e.portalId)}?file=${e.fileId}`;
  return portalPath(orgId, e.portalId);
}

// "Whose is it" (the assignee filter and "mine"): the members the item's request is assigned to;
// when the request has no member assigned, or the item has no request (a message, a file sent
// unasked), the member who created the portal.

function itemsBase(orgId: string) {
  return sql
    .selectFrom("InboxItem as i")
    .innerJoin("Portal as p", "p.id", "i.portalId")
    .where("i.orgId", "=", orgId)
    .where("p.orgId", "=", orgId)
    .where("p.deletedAt", "is", null);
}

function overdueBase(orgId: string, now: Date) {
  return sql
    .selectFrom("Task as t")
    .innerJoin("Portal as p", "p.id", "t.portalId")
    .where("t.orgId", "=", orgId)
    .where("t.status", "=", "Open")
    .where("t.dueDate", "<", now)
    .where("t.deletedAt", "is", null)
    .where("p.orgId", "=", orgId)
    .where("p.deletedAt", "is", null)
    .where("p.isTemplate", "=", false);
}

/**
 * One page of the member's inbox, newest first, with the filters (portal, kind, whose, unread
 * only), and the cursor of the next page. Members and admins; each sees their own seen state.
 */
export async function listInbox({
  viewer,
  filter = {},
  pageSize = INBOX_PAGE_SIZE,
}: {
  viewer: Viewer;
  filter?: Partial<InboxFilter>;
  pageSize?: number;
}): Promise<{ items: InboxEntry[]; next: string | null }> {
  const member = inboxMember(viewer);
  const { orgId, userId } = member;
  const watermark = await seenWatermark(member);
  const assignee = filter.mine ? userId : filter.assignee;
  const cursor: Cursor | undefined = filter.cursor;
  const take = pageSize + 1;
  const wantItems = filter.kind !== "overdue";
  // Overdue requests have no seen state: "unread only" leaves them out.
  const wantOverdue = (filter.kind === undefined || filter.kind === "overdue") && !filter.unread;

  const itemRows = wantItems
    ? await rows(
        itemsBase(orgId)
          .leftJoin("User as u", "u.id", "i.actorUserId")
          .select((eb) => [
            "i.id",
            "i.kind",
            "i.portalId",
            "p.name as portalName",
            "i.title",
            "i.createdAt as at",
            "i.taskId",
            "i.fileId",
            "i.messageId",
            "u.name as actorName",
            "u.email as actorEmail",
            eb
              .or([
                eb("i.createdAt", "<=", watermark),
                eb.exists(eb.selectFrom("InboxSeen as s").select("s.itemId").whereRef("s.itemId", "=", "i.id").where("s.userId", "=", userId)),
              ])
              .as("seen"),
          ])
          .$if(filter.portal !== undefined, (q) => q.where("i.portalId", "=", filter.portal!))
          .$if(filter.kind !== undefined && filter.kind !== "overdue", (q) => q.where("i.kind", "=", filter.kind as InboxKind))
          .$if(assignee !== undefined, (q) =>
            q.where((eb) => {
              const members = eb.selectFrom("TaskAssignee as ta").select("ta.id").whereRef("ta.taskId", "=", "i.taskId").where("ta.type", "=", "member");
              return eb.or([eb.exists(members.where("ta.userId", "=", assignee!)), eb.and([eb.not(eb.exists(members)), eb("p.createdById", "=", assignee!)])]);
            }),
          )
          .$if(!!filter.unread, (q) =>
            q
              .where("i.createdAt", ">", watermark)
              .where((eb) =>
                eb.not(eb.exists(eb.selectFrom("InboxSeen as s").select("s.itemId").whereRef("s.itemId", "=", "i.id").where("s.userId", "=", userId))),
              ),
          )
          .$if(cursor !== undefined, (q) =>
            q.where((eb) =>
              eb.or([eb("i.createdAt", "<", cursor!.createdAt), eb.and([eb("i.createdAt", "=", cursor!.createdAt), eb("i.id", "<", cursor!.id)])]),
            ),
          )
          .orderBy("i.createdAt", "desc")
          .orderBy("i.id", "desc")
          .limit(take),
      )
    : [];

  const now = new Date();
  const overdueRows = wantOverdue
    ? await rows(
        overdueBase(orgId, now)
          .select(["t.id", "t.portalId", "p.name as portalName", "t.title", "t.dueDate as at"])
          .$if(filter.portal !== undefined, (q) => q.where("t.portalId", "=", filter.portal!))
          .$if(assignee !== undefined, (q) =>
            q.where((eb) => {
              const members = eb.selectFrom("TaskAssignee as ta").select("ta.id").whereRef("ta.taskId", "=", "t.id").where("ta.type", "=", "member");
              return eb.or([eb.exists(members.where("ta.userId", "=", assignee!)), eb.and([eb.not(eb.exists(members)), eb("p.createdById", "=", assignee!)])]);
            }),
          )
          .$if(cursor !== undefined, (q) =>
            q.where((eb) => eb.or([eb("t.dueDate", "<", cursor!.createdAt), eb.and([eb("t.dueDate", "=", cursor!.createdAt), eb("t.id", "<", cursor!.id)])])),
          )
          .orderBy("t.dueDate", "desc")
          .orderBy("t.id", "desc")
          .limit(take),
      )
    : [];

  const entries: InboxEntry[] = [
    ...itemRows.map((r) => ({
      id: r.id,
      kind: r.kind,
      portalId: r.portalId,
      portalName: r.portalName,
      title: r.title,
      at: new Date(r.at),
      actor: r.actorName?.trim() || r.actorEmail || null,
      seen: Boolean(r.seen),
      taskId: r.taskId,
      href: inboxHref(orgId, { kind: r.kind, portalId: r.portalId, taskId: r.taskId, fileId: r.fileId, messageId: r.messageId }),
    })),
    ...overdueRows.map((r) => ({
      id: r.id,
      kind: "overdue" as const,
      portalId: r.portalId,
      portalName: r.portalName,
      title: r.title,
      at: new Date(r.at!),
      actor: null,
      seen: true,
      taskId: r.id,
      href: inboxHref(orgId, { kind: "overdue", portalId: r.portalId, taskId: r.id, fileId: null, messageId: null }),
    })),
  ].sort((a, b) => b.at.getTime() - a.at.getTime() || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0));

  const items = entries.slice(0, pageSize);
  const last = items.at(-1);
  return { items, next: entries.length > pageSize && last ? encodeCursor({ createdAt: last.at, id: last.id }) : null };
}

/**
 * How many items the member has not seen (capped at UNREAD_COUNT_CAP: one index range after the
 * watermark, stopped at the cap, so a member who never looks costs the same as one who does).
 */
export async function inboxUnreadCount({ viewer }: { viewer: Viewer }): Promise<number> {
  const member = inboxMember(viewer);
  const watermark = await seenWatermark(member);
  const unseen = itemsBase(member.orgId)
    .select("i.id")
    .where("i.createdAt", ">", watermark)
    .where((eb) =>
      eb.not(eb.exists(eb.selectFrom("InboxSeen as s").select("s.itemId").whereRef("s.itemId", "=", "i.id").where("s.userId", "=", member.userId))),
    )
    .limit(UNREAD_COUNT_CAP);
  const [row] = await rows(sql.selectFrom(unseen.as("x")).select((eb) => eb.fn.countAll<string>().as("n")));
  return Number(row?.n ?? 0);
}

/** The organization's members and admins, for the inbox's "whose" filter. */
export async function listInboxAssignees({ viewer }: { viewer: Viewer }): Promise<{ id: string; name: string }[]> {
  const member = inboxMember(viewer);
  const rows = await db.membership.findMany({ where: { orgId: member.orgId }, select: { user: { select: { id: true, name: true, email: true } } } });
  return rows.map((m) => ({ id: m.user.id, name: m.user.name?.trim() || m.user.email })).sort((a, b) => a.name.localeCompare(b.name));
}
