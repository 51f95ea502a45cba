import { db } from "@/lib/db";
import { env } from "@/lib/env";
import { smtpTransport } from "@/lib/email/transport";

export type DeliveryOutcome = "sent" | "retry" | "failed" | "skipped";

/**
 * One SMTP attempt for a queued message. `sent` and `failed` are final and recorded; `retry`
 * keeps the message queued with the error of this attempt; `skipped` means it is not queued any
 * more (already sent or failed: an attempt repeated by the engine sends nothing twice once the
 * first one was recorded). Without SMTP_URL at sending time the message is kept as `captured`.
 */
export async function deliverEmail({ emailId, final }: { emailId: string; final: boolean }): Promise<DeliveryOutcome> {
  const email = await db.outboundEmail.findUnique({ where: { id: emailId } });
  if (!email || email.status !== "queued") return "skipped";
  const transport = smtpTransport();
  if (!transport) {
    await db.outboundEmail.updateMany({ where: { id: emailId, status: "queued" }, data: { status: "captured" } });
    return "skipped";
  }
  try {
    const info = await transport.sendMail({ from: env().EMAIL_FROM, to: email.to, subject: email.subject, html: email.html, text: email.text });
    await db.outboundEmail.updateMany({
      where: { id: emailId, status: "queued" },
      data: { status: "sent", sentAt: new Date(), messageId: typeof info.messageId === "string" ? info.messageId : null, error: null },
    });
    return "sent";
  } catch (e) {
    const error = (e instanceof Error ? e.message : String(e)).slice(0, 1000);
    await db.outboundEmail.updateMany({ where: { id: emailId, status: "queued" }, data: final ? { status: "failed", error } : { error } });
    return final ? "failed" : "retry";
  }
}
