import { escapeHtml } from "@/lib/email/escape";

/** A named signer's turn on a document several people sign in order: who signed before, and the link to sign. */
export function turnToSignEmail(input: { orgName: string; portalName: string; taskTitle: string; signedBy: string; signUrl: string }) {
  const subject = `Your turn to sign: ${input.taskTitle}`;
  const text = [
    `${input.orgName} asks you to sign a document in the portal "${input.portalName}": ${input.signedBy} has signed it, and it is now your turn.`,
    "",
    input.taskTitle,
    "",
    `Sign the document: ${input.signUrl}`,
  ].join("\n");
  const html =
    `<p>${escapeHtml(input.orgName)} asks you to sign a document in the portal <strong>${escapeHtml(input.portalName)}</strong>: ` +
    `${escapeHtml(input.signedBy)} has signed it, and it is now your turn.</p>` +
    `<p style="font-size:16px"><strong>${escapeHtml(input.taskTitle)}</strong></p>` +
    `<p><a href="${escapeHtml(input.signUrl)}" style="display:inline-block;background:#0f172a;color:#ffffff;padding:10px 16px;border-radius:6px;text-decoration:none">Sign the document</a></p>`;
  return { subject, text, html };
}
