import { escapeHtml } from "@/lib/email/escape";

export interface MessagePostedEmailInput {
  orgName: string;
  portalName: string;
  /** Who wrote it: a person's name or email (for a client, "Northwind Advisors" when the firm wrote). */
  from: string;
  body: string;
  attachments: string[];
  threadUrl: string;
}

const FOOTER = "You get this email because message notifications are on in your settings.";

/** A new message in a portal's thread: who wrote, the text, the attachments' names, and the link to answer. */
export function messagePostedEmail(input: MessagePostedEmailInput) {
  const subject = `New message from ${input.from} in ${input.portalName}`;
  const body = input.body.length > 4000 ? `${input.body.slice(0, 4000)}…` : input.body;
  const files = input.attachments.length > 0 ? `Attached: ${input.attachments.join(", ")}` : "";
  const text = [
    `${input.from} wrote in the portal "${input.portalName}" (${input.orgName}):`,
    "",
    ...(body ? [body, ""] : []),
    ...(files ? [files, ""] : []),
    `Read and answer: ${input.threadUrl}`,
    "",
    FOOTER,
  ].join("\n");
  const html =
    `<p>${escapeHtml(input.from)} wrote in the portal <strong>${escapeHtml(input.portalName)}</strong> (${escapeHtml(input.orgName)}):</p>` +
    (body ? `<blockquote style="margin:0 0 12px;padding:8px 12px;border-left:3px solid #cbd5e1;white-space:pre-line">${escapeHtml(body)}</blockquote>` : "") +
    (files ? `<p style="color:#475569">${escapeHtml(files)}</p>` : "") +
    `<p><a href="${escapeHtml(input.threadUrl)}" style="display:inline-block;background:#0f172a;color:#ffffff;padding:10px 16px;border-radius:6px;text-decoration:none">Read and answer</a></p>` +
    `<p style="color:#475569;font-size:13px">${escapeHtml(FOOTER)}</p>`;
  return { subject, text, html };
}
