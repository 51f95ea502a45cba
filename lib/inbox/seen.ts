import type { Viewer } from "@/lib/access/viewer";
import { db, runInTransaction } from "@/lib/db";
import { notFound } from "@/lib/errors";
import { isUuid } from "@/lib/ids";
import { inboxHref, inboxMember } from "./list-inbox";

// Each member's seen state of the inbox: a watermark (Membership.inboxSeenAt, "mark all seen")
// and one InboxSeen row per item seen after it. A read state of one person, like an email client's:
// it changes nothing of the organization's, so it writes no audit row. Marking twice, or two tabs
// at once, is harmless (insert ... on conflict do nothing; the watermark only moves forward).

/**
 * Marks one inbox item seen by the member and returns where it leads (the page a member "opens"
 * it to). not_found for an item of another organization or of a deleted portal.
 */
export async function markInboxItemSeen({ viewer, itemId }: { viewer: Viewer; itemId: string }): Promise<{ href: string }> {
  const member = inboxMember(viewer);
  const item = isUuid(itemId)
    ? await db.inboxItem.findFirst({
        where: { id: itemId, orgId: member.orgId, portal: { orgId: member.orgId, deletedAt: null } },
        select: { id: true, kind: true, portalId: true, taskId: true, fileId: true, messageId: true },
      })
    : null;
  if (!item) throw notFound("Inbox item");
  try {
    await db.inboxSeen.createMany({ data: [{ itemId: item.id, userId: member.userId }], skipDuplicates: true });
  } catch (e) {
    // The item went with its portal meanwhile (its row is gone: the foreign key refuses).
    if ((e as { code?: string }).code === "P2003") throw notFound("Inbox item");
    throw e;
  }
  return { href: inboxHref(member.orgId, item) };
}

/** Marks everything in the member's inbox up to now seen (the watermark moves; per-item rows before it are cleared). */
export async function markAllInboxSeen({ viewer }: { viewer: Viewer }): Promise<{ seenAt: Date }> {
  const member = inboxMember(viewer);
  const seenAt = new Date();
  await runInTransaction(async (tx) => {
    await tx.membership.updateMany({
      where: { orgId: member.orgId, userId: member.userId, OR: [{ inboxSeenAt: null }, { inboxSeenAt: { lt: seenAt } }] },
      data: { inboxSeenAt: seenAt },
    });
    await tx.inboxSeen.deleteMany({ where: { userId: member.userId, item: { orgId: member.orgId, createdAt: { lte: seenAt } } } });
  });
  return { seenAt };
}

/**
 * The member read a portal's thread up to `until`: its message items in their inbox are seen too
 * (opening the Messages tab is opening those items). Called by the thread's read marker.
 */
export async function markMessageItemsSeen(member: { orgId: string; userId: string }, portalId: string, until: Date): Promise<void> {
  const items = await db.inboxItem.findMany({
    where: { orgId: member.orgId, portalId, kind: "message", createdAt: { lte: until }, seen: { none: { userId: member.userId } } },
    select: { id: true },
    orderBy: { createdAt: "desc" },
    take: 500,
  });
  if (items.length === 0) return;
  await db.inboxSeen.createMany({ data: items.map((i) => ({ itemId: i.id, userId: member.userId })), skipDuplicates: true });
}
