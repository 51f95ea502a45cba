import type { Viewer } from "@/lib/access/viewer";
import { db } from "@/lib/db";
import { forbidden } from "@/lib/errors";
import { markMessageItemsSeen } from "@/lib/inbox/seen";
import { accessPortal } from "@/lib/access/access-portal";
import { decodeCursor, encodeCursor } from "@/lib/pagination";

const THREAD_PAGE_SIZE = 50;

export interface ThreadMessage {
  id: string;
  body: string;
  createdAt: Date;
  fromFirm: boolean;
  /** The author's name or email; null once their account is gone. */
  author: string | null;
  mine: boolean;
  /** Newer than the viewer's read marker and not their own. */
  unread: boolean;
  files: { id: string; name: string; size: number }[];
}

/** The viewer's read marker of the thread (null: never read). */
async function readAt(portalId: string, userId: string): Promise<Date | null> {
  const row = await db.messageRead.findUnique({ where: { portalId_userId: { portalId, userId } }, select: { readAt: true } });
  return row?.readAt ?? null;
}

/**
 * A portal's thread, the latest page (oldest first on the page) or the page before `before` (the
 * "older messages" link), with each message's attachments and whether it is unread for the viewer.
 * Members, admins and the portal's guests; another organization's or another portal's guest gets
 * not_found. Attachments are files of the portal: a guest without download sees their names only.
 */
export async function listMessages({ viewer, portalId, before }: { viewer: Viewer; portalId: string; before?: string }) {
  await accessPortal(viewer, portalId, "messages");
  if (viewer.kind !== "user") throw forbidden("The thread is read by people");
  const cursor = before ? decodeCursor(before) : null;
  const rows = await db.message.findMany({
    where: {
      orgId: viewer.orgId,
      portalId,
      ...(cursor ? { OR: [{ createdAt: { lt: cursor.createdAt } }, { createdAt: cursor.createdAt, id: { lt: cursor.id } }] } : {}),
    },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: THREAD_PAGE_SIZE + 1,
    select: {
      id: true,
      body: true,
      createdAt: true,
      fromFirm: true,
      authorId: true,
      author: { select: { name: true, email: true } },
      files: {
        where: { status: "registered", deletedAt: null },
        select: { id: true, name: true, size: true },
        orderBy: [{ createdAt: "asc" }, { id: "asc" }],
      },
    },
  });
  const marker = await readAt(portalId, viewer.userId);
  const page = rows.slice(0, THREAD_PAGE_SIZE);
  const oldest = page.at(-1);
  const messages: ThreadMessage[] = page.reverse().map((m) => ({
    id: m.id,
    body: m.body,
    createdAt: m.createdAt,
    fromFirm: m.fromFirm,
    author: m.author ? m.author.name?.trim() || m.author.email : null,
    mine: m.authorId === viewer.userId,
    unread: m.authorId !== viewer.userId && (marker === null || m.createdAt > marker),
    files: m.files,
  }));
  return { messages, older: rows.length > THREAD_PAGE_SIZE && oldest ? encodeCursor({ createdAt: oldest.createdAt, id: oldest.id }) : null };
}

/** Messages in the thread the viewer has not read (not their own): the portal tab's and the client's badge. */
export async function unreadMessageCount({ viewer, portalId }: { viewer: Viewer; portalId: string }): Promise<number> {
  await accessPortal(viewer, portalId, "messages");
  if (viewer.kind !== "user") return 0;
  const marker = await readAt(portalId, viewer.userId);
  return db.message.count({
    where: {
      orgId: viewer.orgId,
      portalId,
      OR: [{ authorId: null }, { authorId: { not: viewer.userId } }],
      ...(marker ? { createdAt: { gt: marker } } : {}),
    },
  });
}

/**
 * The viewer has read the thread up to `until` (the newest message they were shown): their read
 * marker moves forward (never back: two tabs, or a late request, cannot unread anything), and for
 * a member the thread's message items in their inbox are seen. A person's read state: no audit row.
 */
export async function markThreadRead({ viewer, portalId, until }: { viewer: Viewer; portalId: string; until: Date }): Promise<void> {
  await accessPortal(viewer, portalId, "messages");
  if (viewer.kind !== "user") throw forbidden("The thread is read by people");
  const at = until > new Date() ? new Date() : until;
  await db.messageRead.createMany({ data: [{ portalId, userId: viewer.userId, readAt: at }], skipDuplicates: true });
  await db.messageRead.updateMany({ where: { portalId, userId: viewer.userId, readAt: { lt: at } }, data: { readAt: at } });
  if (viewer.role !== "guest") await markMessageItemsSeen({ orgId: viewer.orgId, userId: viewer.userId }, portalId, at);
}
