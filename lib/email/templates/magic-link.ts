import { escapeHtml } from "@/lib/email/escape";

export function magicLinkEmail({ url, host }: { url: string; host: string }) {
  return {
    subject: `Sign in to Client Portals`,
    text: `Sign in to Client Portals (${host}) with this link. It works once and expires in 24 hours:\n\n${url}\n\nIf you did not ask for it, ignore this email.`,
    html: `<p>Sign in to Client Portals (${escapeHtml(host)}).</p><p><a href="${escapeHtml(url)}">Sign in</a></p><p>The link works once and expires in 24 hours. If you did not ask for it, ignore this email.</p>`,
  };
}
