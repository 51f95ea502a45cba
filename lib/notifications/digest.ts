import { db, type Tx } from "@/lib/db";
import { sendEmail } from "@/lib/email/send-email";
import { escapeHtml } from "@/lib/email/escape";
import { formatDateTime, hourIn } from "@/lib/time/format";
import { orgTimeZone } from "@/lib/time/settings";
import { DEFAULT_TIME_ZONE } from "@/lib/time/zones";
import type { NotificationPreferenceKind } from "./preferences";

// The daily digest: notifications of the kinds a user set to "digest" are kept as DigestItem rows
// and mailed together once a day by the scheduled Inngest function (inngest/functions/daily-digest),
// at 07:00 in the recipient's zone: theirs, else the default of the organization of their oldest
// pending item, else UTC.

/** The hour of the recipient's morning the digest goes out at. */
const DIGEST_HOUR = 7;

export async function keepForDigest(
  item: {
    userId: string;
    orgId: string | null;
    kind: NotificationPreferenceKind;
    subject: string;
    text: string;
    url?: string | null;
  },
  client: Pick<Tx, "digestItem"> = db,
) {
  await client.digestItem.create({ data: { ...item, url: item.url ?? null } });
}

/** Users with unsent digest items whose digest hour it is at `now` (the hourly run fans out to them). */
export async function usersWithPendingDigest(now: Date): Promise<string[]> {
  // distinct keeps the first row per user: with this order, their oldest pending item.
  const rows = await db.digestItem.findMany({
    where: { sentAt: null },
    distinct: ["userId"],
    orderBy: [{ userId: "asc" }, { createdAt: "asc" }, { id: "asc" }],
    select: { userId: true, orgId: true, user: { select: { timeZone: true } } },
  });
  const orgIds = [...new Set(rows.flatMap((r) => (r.orgId && !r.user.timeZone ? [r.orgId] : [])))];
  const orgs = orgIds.length > 0 ? await db.organization.findMany({ where: { id: { in: orgIds } }, select: { id: true, defaultTimeZone: true } }) : [];
  const orgZone = new Map(orgs.map((o) => [o.id, o.defaultTimeZone]));
  return rows
    .filter((r) => hourIn(now, r.user.timeZone ?? (r.orgId ? orgZone.get(r.orgId) : undefined) ?? DEFAULT_TIME_ZONE) === DIGEST_HOUR)
    .map((r) => r.userId);
}

/**
 * Mails one user's unsent items as one message and marks them sent (only those read, so an item
 * added meanwhile waits for the next digest). Nothing pending: nothing sent.
 */
export async function sendDigest(userId: string): Promise<{ items: number }> {
  const user = await db.user.findUnique({ where: { id: userId }, select: { email: true, name: true, timeZone: true } });
  const items = await db.digestItem.findMany({ where: { userId, sentAt: null }, orderBy: [{ createdAt: "asc" }, { id: "asc" }], take: 500 });
  if (!user || items.length === 0) return { items: 0 };
  const zone = user.timeZone ?? (await orgTimeZone(items[0]!.orgId));
  const when = (i: { createdAt: Date }) => formatDateTime(i.createdAt, zone);
  const lines = items.map((i) => `- ${when(i)} · ${i.subject}${i.url ? `: ${i.url}` : ""}`);
  const text = [`Hello${user.name ? ` ${user.name}` : ""},`, "", "Here is what happened since your last digest:", "", ...lines].join("\n");
  const html =
    `<p>Hello${user.name ? ` ${escapeHtml(user.name)}` : ""},</p><p>Here is what happened since your last digest:</p><ul>` +
    items
      .map((i) => `<li>${escapeHtml(when(i))} · ${i.url ? `<a href="${escapeHtml(i.url)}">${escapeHtml(i.subject)}</a>` : escapeHtml(i.subject)}</li>`)
      .join("") +
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
