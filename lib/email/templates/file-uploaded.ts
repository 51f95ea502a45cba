import { escapeHtml } from "@/lib/email/escape";

export interface FileUploadedEmailInput {
  portalName: string;
  fileName: string;
  uploaderName: string | null;
  fileUrl: string;
}

export function fileUploadedEmail(input: FileUploadedEmailInput) {
  const who = input.uploaderName ?? "Someone";
  return {
    subject: `New file in ${input.portalName}: ${input.fileName}`,
    text: `${who} uploaded "${input.fileName}" to the portal "${input.portalName}".\n\nOpen it: ${input.fileUrl}\n\nYou get this email because file notifications are on in your settings.`,
    html:
      `<p>${escapeHtml(who)} uploaded <strong>${escapeHtml(input.fileName)}</strong> to the portal ${escapeHtml(input.portalName)}.</p>` +
      `<p><a href="${escapeHtml(input.fileUrl)}">Open the file</a></p>` +
      `<p>You get this email because file notifications are on in your settings.</p>`,
  };
}
