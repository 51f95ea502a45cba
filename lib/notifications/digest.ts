import { db } from "@/lib/db";
import { sendEmail } from "@/lib/email/send-email";
import { escapeHtml } from "@/lib/email/escape";
import type { NotificationPreferenceKind } from "./preferences";

// The daily digest: notifications of the kinds a user set to "digest" are kept as DigestItem rows
// and mailed together once a day by the scheduled Inngest function (inngest/functions/daily-digest).

export async function keepForDigest(item: {
  userId: string;
  orgId: string | null;
  kind: NotificationPreferenceKind;
  subject: string;
  text: string;
  url?: string | null;
}) {
  await db.digestItem.create({ data: { ...item, url: item.url ?? null } });
}

/** Users with unsent digest items, for the scheduled run to fan out. */
export async function usersWithPendingDigest(): Promise<string[]> {
  const rows = await db.digestItem.findMany({ where: { sentAt: null }, distinct: ["userId"], select: { userId: true } });
  return rows.map((r) => r.userId);
}

/**
 * Mails one user's unsent items as one message and marks them sent (only those read, so an item
 * added meanwhile waits for the next digest). Nothing pending: nothing sent.
 */
export async function sendDigest(userId: string): Promise<{ items: number }> {
  const user = await db.user.findUnique({ where: { id: userId }, select: { email: true, name: true } });
  const items = await db.digestItem.findMany({ where: { userId, sentAt: null }, orderBy: [{ createdAt: "asc" }, { id: "asc" }], take: 500 });
  if (!user || items.length === 0) return { items: 0 };
  const lines = items.map((i) => `- ${i.subject}${i.url ? `: ${i.url}` : ""}`);
  const text = [`Hello${user.name ? ` ${user.name}` : ""},`, "", "Here is what happened since your last digest:", "", ...lines].join("\n");
  const html =
    `<p>Hello${user.name ? ` ${escapeHtml(user.name)}` : ""},</p><p>Here is what happened since your last digest:</p><ul>` +
    items.map((i) => `<li>${i.url ? `<a href="${escapeHtml(i.url)}">${escapeHtml(i.subject)}</a>` : escapeHtml(i.subject)}</li>`).join("") +
    `</ul>`;
  // One organization's items go out under it; a mix (or none) as a message of the product.
  const orgs = new Set(items.map((i) => i.orgId));
  const orgId = orgs.size === 1 ? [...orgs][0]! : null;
  await sendEmail({
    orgId,
    to: user.email,
    subject: `Your daily digest: ${items.length} update${items.length === 1 ? "" : "s"}`,
    text,
    html,
    template: "digest",
  });
  await db.digestItem.updateMany({ where: { id: { in: items.map((i) => i.id) } }, data: { sentAt: new Date() } });
  return { items: items.length };
}

/**
 * For senders that know an address only (reminders): "send" when the user wants it now (or has no
 * account), otherwise the item is kept for the digest ("kept") or dropped ("off").
 */
export async function routeByPreference(item: {
  email: string;
  orgId: string;
  kind: NotificationPreferenceKind;
  subject: string;
  text: string;
  url?: string;
}): Promise<"send" | "kept" | "off"> {
  const user = await db.user.findUnique({ where: { email: item.email }, select: { id: true, notificationPreference: true } });
  const mode = user?.notificationPreference?.[item.kind] ?? "immediately";
  if (!user || mode === "immediately") return "send";
  if (mode === "off") return "off";
  await keepForDigest({ userId: user.id, orgId: item.orgId, kind: item.kind, subject: item.subject, text: item.text, url: item.url });
  return "kept";
}
