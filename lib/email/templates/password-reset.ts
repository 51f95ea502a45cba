import { escapeHtml } from "@/lib/email/escape";

export function passwordResetEmail({ url }: { url: string }) {
  return {
    subject: "Reset your Client Portals password",
    text: `Someone (hopefully you) asked to reset the password of this Client Portals account. Choose a new password with this link. It works once and expires in 1 hour:\n\n${url}\n\nIf you did not ask for it, ignore this email: your password stays as it is.`,
    html: `<p>Someone (hopefully you) asked to reset the password of this Client Portals account.</p><p><a href="${escapeHtml(url)}">Choose a new password</a></p><p>The link works once and expires in 1 hour. If you did not ask for it, ignore this email: your password stays as it is.</p>`,
  };
}
