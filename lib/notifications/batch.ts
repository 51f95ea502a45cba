import { db } from "@/lib/db";
import { queueEmail } from "@/lib/email/send-email";
import { batchedNoticesEmail, type NoticeLine } from "@/lib/email/templates/batched-notices";
import { withChange } from "@/lib/events/with-change";
import { keepForDigest } from "./digest";
import { modeForUser, type NotificationPreferenceKind } from "./preferences";

// Notices held for a short window (NOTIFY_BATCH_SECONDS) so that several of one kind for one
// person in one organization go out as one email: five uploads, one "5 new files" message; three
// requests created together, one "3 new requests" message. The run that held a notice sleeps for
// the window and then flushes its recipient's held notices of that kind; the first flush after a
// burst claims them all (one conditional UPDATE), later flushes find nothing and send nothing.

const WEEK_MS = 7 * 24 * 3600 * 1000;

const TEMPLATE = { uploads: "file-uploaded", requests: "task-created", messages: "message-posted" } as const;

export type BatchKind = "uploads" | "requests" | "messages";

export interface HeldNotice {
  userId: string;
  orgId: string;
  kind: BatchKind;
  /** The event (or change) the notice is about; holding it again is a no-op. */
  sourceId: string;
  /** The whole single email, sent as it is when the notice is alone in its window. */
  subject: string;
  text: string;
  html: string;
  line: NoticeLine;
}

export async function holdNotice(notice: HeldNotice): Promise<void> {
  await db.batchedNotice.createMany({ data: [{ ...notice, line: { ...notice.line } }], skipDuplicates: true });
}

/**
 * Sends the recipient's unsent notices of a kind in an organization as one email (alone: its own
 * email; several: a list), claiming them in the transaction that queues the email, so a flush
 * that runs twice, or beside another, never sends a notice twice. Returns how many went out.
 */
export async function flushNotices(input: { userId: string; orgId: string; kind: BatchKind }): Promise<{ sent: number }> {
  return withChange(async (tx) => {
    const claimed = await tx.batchedNotice.updateManyAndReturn({
      where: { userId: input.userId, orgId: input.orgId, kind: input.kind, sentAt: null },
      data: { sentAt: new Date() },
    });
    if (claimed.length === 0) return { sent: 0 };
    // Sent notices are kept a week (a retried hold of one stays a no-op), then cleared here.
    await tx.batchedNotice.deleteMany({
      where: { userId: input.userId, orgId: input.orgId, kind: input.kind, sentAt: { lt: new Date(Date.now() - WEEK_MS) } },
    });
    const user = await tx.user.findUnique({ where: { id: input.userId }, select: { email: true } });
    if (!user) return { sent: 0 };
    claimed.sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || a.id.localeCompare(b.id));
    const org = await tx.organization.findUniqueOrThrow({ where: { id: input.orgId }, select: { name: true } });
    const content =
      claimed.length === 1
        ? { subject: claimed[0]!.subject, text: claimed[0]!.text, html: claimed[0]!.html }
        : batchedNoticesEmail({ kind: input.kind, orgName: org.name, lines: claimed.map((n) => n.line as unknown as NoticeLine) });
    await queueEmail(tx, {
      orgId: input.orgId,
      to: user.email,
      template: TEMPLATE[input.kind],
      ...content,
    });
    return { sent: claimed.length };
  });
}

/**
 * One recipient's notice as they chose for the kind (lib/notifications/preferences.ts): held for
 * the batch window, kept for the daily digest, or dropped.
 */
export async function offerNotice(notice: HeldNotice, preference: NotificationPreferenceKind): Promise<"held" | "digest" | "off"> {
  const mode = await modeForUser(notice.userId, preference);
  if (mode === "off") return "off";
  if (mode === "digest") {
    await keepForDigest({ userId: notice.userId, orgId: notice.orgId, kind: preference, subject: notice.subject, text: notice.text, url: notice.line.url });
    return "digest";
  }
  await holdNotice(notice);
  return "held";
}
