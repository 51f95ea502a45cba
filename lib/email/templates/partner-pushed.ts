import { escapeHtml } from "@/lib/email/escape";

export interface PartnerPushedEmailInput {
  portalName: string;
  fileName: string;
  partnerName: string;
  fileUrl: string;
}

/** To a portal's guests: a file of their portal went to the partner and is there to download. */
export function partnerPushedEmail(input: PartnerPushedEmailInput) {
  return {
    subject: `${input.fileName} was sent to ${input.partnerName}`,
    text: `"${input.fileName}" in the portal "${input.portalName}" was sent to ${input.partnerName}. You can download it from the portal: ${input.fileUrl}\n\nYou get this email because file notifications are on in your settings.`,
    html:
      `<p><strong>${escapeHtml(input.fileName)}</strong> in the portal ${escapeHtml(input.portalName)} was sent to ${escapeHtml(input.partnerName)}.</p>` +
      `<p><a href="${escapeHtml(input.fileUrl)}">Download it from the portal</a></p>` +
      `<p>You get this email because file notifications are on in your settings.</p>`,
  };
}
