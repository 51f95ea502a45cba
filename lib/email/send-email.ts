import { db, type Tx } from "@/lib/db";
import { deliverEmail } from "@/lib/email/deliver-email";
import { withChange } from "@/lib/events/with-change";
import { recordEvent } from "@/lib/events/record-event";
import { smtpTransport } from "@/lib/email/transport";
import { brandEmailHtml } from "@/lib/email/brand";
import { env } from "@/lib/env";

export interface EmailMessage {
  orgId?: string | null;
  to: string;
  subject: string;
  html: string;
  text: string;
  /** Template name, kept with the record (magic-link, invitation, reminder, ...). */
  template: string;
}

export type EmailStatus = "queued" | "sent" | "failed" | "captured";

/**
 * Records an organization's message in the caller's transaction, under the organization's brand
 * header (lib/email/brand.ts). With SMTP_URL set it is `queued`
 * and an `email.queued` event is written beside it (D22), from which the `send-email` Inngest
 * function sends it; without SMTP_URL it is `captured` for /dev/mailbox (D29).
 */
export async function queueEmail(tx: Tx, message: EmailMessage & { orgId: string }): Promise<{ id: string; status: "queued" | "captured" }> {
  const status = smtpTransport() ? "queued" : "captured";
  // Every organization's email carries its brand: colour and logo (or name) in the header.
  const org = await tx.organization.findUniqueOrThrow({ where: { id: message.orgId }, select: { name: true, brandColor: true, logoUrl: true } });
  const html = brandEmailHtml(message.html, org, env().APP_URL);
  const record = await tx.outboundEmail.create({ data: { ...message, html, status }, select: { id: true } });
  if (status === "queued") await recordEvent(tx, { orgId: message.orgId, type: "email.queued", data: { email_id: record.id } });
  return { id: record.id, status };
}

/**
 * Records and sends a message. An organization's message goes through the queue (`queueEmail`,
 * sent by Inngest with retries). A message without an organization (magic-link sign-in) cannot
 * use the outbox, whose events belong to an organization, and must not wait for the job engine
 * while someone waits at the sign-in page: it is sent at once, one attempt, the outcome recorded.
 * Without SMTP_URL every message is `captured` (D29).
 */
export async function sendEmail(message: EmailMessage): Promise<{ id: string; status: EmailStatus }> {
  const { orgId } = message;
  if (orgId) {
    return withChange((tx) => queueEmail(tx, { ...message, orgId }));
  }
  const status = smtpTransport() ? "queued" : "captured";
  const record = await db.outboundEmail.create({ data: { ...message, orgId: null, status }, select: { id: true } });
  if (status === "captured") return { id: record.id, status };
  const outcome = await deliverEmail({ emailId: record.id, final: true });
  return { id: record.id, status: outcome === "sent" ? "sent" : "failed" };
}
