import { escapeHtml } from "@/lib/email/escape";

/** A request the firm sent back: what, why, and the link to do it again. */
export function taskReturnedEmail(input: { orgName: string; portalName: string; taskTitle: string; reason: string; taskUrl: string }) {
  const subject = `${input.orgName} sent back: ${input.taskTitle}`;
  const text = [
    `${input.orgName} looked at what you sent for "${input.taskTitle}" in the portal "${input.portalName}" and needs something more:`,
    "",
    input.reason,
    "",
    `Open the request: ${input.taskUrl}`,
  ].join("\n");
  const html =
    `<p>${escapeHtml(input.orgName)} looked at what you sent for <strong>${escapeHtml(input.taskTitle)}</strong> in the portal ${escapeHtml(input.portalName)} and needs something more:</p>` +
    `<blockquote style="border-left:4px solid #cbd5e1;margin:0;padding:4px 12px;white-space:pre-line">${escapeHtml(input.reason)}</blockquote>` +
    `<p><a href="${escapeHtml(input.taskUrl)}">Open the request</a></p>`;
  return { subject, text, html };
}
