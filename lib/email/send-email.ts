import nodemailer from "nodemailer";
import { db } from "@/lib/db";
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

let transport: nodemailer.Transporter | undefined;

function smtp(): nodemailer.Transporter | undefined {
  const url = env().SMTP_URL;
  if (!url) return undefined;
  transport ??= nodemailer.createTransport(url);
  return transport;
}

/**
 * Records the message and sends it through SMTP when SMTP_URL is set; otherwise it is kept as
 * `captured` and shown at /dev/mailbox (D29). A failed send is recorded, never thrown away.
 */
export async function sendEmail(message: EmailMessage): Promise<{ id: string; status: "sent" | "failed" | "captured" }> {
  const mailer = smtp();
  const record = await db.outboundEmail.create({
    data: { ...message, orgId: message.orgId ?? null, status: mailer ? "queued" : "captured" },
    select: { id: true },
  });
  if (!mailer) return { id: record.id, status: "captured" };

  try {
    const info = await mailer.sendMail({ from: env().EMAIL_FROM, to: message.to, subject: message.subject, html: message.html, text: message.text });
    await db.outboundEmail.update({
      where: { id: record.id },
      data: { status: "sent", sentAt: new Date(), messageId: info.messageId },
    });
    return { id: record.id, status: "sent" };
  } catch (e) {
    const error = e instanceof Error ? e.message : String(e);
    await db.outboundEmail.update({ where: { id: record.id }, data: { status: "failed", error } });
    return { id: record.id, status: "failed" };
  }
}
