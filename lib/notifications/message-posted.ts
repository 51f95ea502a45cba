import { db } from "@/lib/db";
import { messagePostedEmail } from "@/lib/email/templates/message-posted";
import { env } from "@/lib/env";
import { messageSummary } from "@/lib/inbox/record-activity";
import { guestPortalPath } from "@/lib/links";
import type { HeldNotice } from "./batch";

/** Where a recipient reads a thread: the portal's Messages tab (the firm), the portal page's messages (a client). */
function threadUrl(orgId: string, portalId: string, forClient: boolean, messageId?: string): string {
  const base = env().APP_URL;
  return forClient
    ? `${base}${guestPortalPath(orgId, portalId)}#messages`
    : `${base}/org/${orgId}/vault/${portalId}/messages${messageId ? `#message-${messageId}` : ""}`;
}

/**
 * The notices of a new message, one per person on the other side of the thread: a client's
 * message goes to the organization's members and admins; the firm's to the portal's guests who
 * accepted their invitation (never a member). The author is never told. Empty when the message or
 * its portal is gone.
 */
export async function messagePostedNotices(input: { orgId: string; portalId: string; messageId: string }): Promise<HeldNotice[]> {
  const message = await db.message.findFirst({
    where: { id: input.messageId, orgId: input.orgId, portalId: input.portalId, portal: { deletedAt: null } },
    select: {
      id: true,
      body: true,
      fromFirm: true,
      authorId: true,
      author: { select: { name: true, email: true } },
      files: { where: { deletedAt: null }, select: { name: true }, orderBy: { createdAt: "asc" } },
      portal: { select: { name: true, org: { select: { name: true } } } },
    },
  });
  if (!message) return [];
  const orgName = message.portal.org.name;
  const who = message.author ? message.author.name?.trim() || message.author.email : "Someone";
  const recipients = message.fromFirm
    ? (
        await db.portalGuest.findMany({
          where: { orgId: input.orgId, portalId: input.portalId, acceptedAt: { not: null }, user: { memberships: { none: { orgId: input.orgId } } } },
          select: { userId: true },
        })
      ).map((g) => g.userId)
    : (await db.membership.findMany({ where: { orgId: input.orgId }, select: { userId: true } })).map((m) => m.userId);
  const from = message.fromFirm ? `${who} (${orgName})` : who;
  const attachments = message.files.map((f) => f.name);
  const url = threadUrl(input.orgId, input.portalId, message.fromFirm, message.id);
  const content = messagePostedEmail({ orgName, portalName: message.portal.name, from, body: message.body, attachments, threadUrl: url });
  return recipients
    .filter((userId) => userId !== message.authorId)
    .sort()
    .map((userId) => ({
      userId,
      orgId: input.orgId,
      kind: "messages" as const,
      sourceId: message.id,
      ...content,
      line: { title: messageSummary(message.body, message.files), url, detail: `${message.portal.name} · from ${from}` },
    }));
}
