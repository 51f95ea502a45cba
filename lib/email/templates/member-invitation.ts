import { escapeHtml } from "@/lib/email/escape";

/** The invitation to join an organization as a member or admin. */
export function memberInvitationEmail(input: { acceptUrl: string; orgName: string; inviterName: string | null; role: string; expiresInDays: number }) {
  const who = input.inviterName ?? "An admin";
  const text = [
    "Hello,",
    "",
    `${who} invited you to join ${input.orgName} on Client Portals as ${input.role === "admin" ? "an admin" : "a member"}.`,
    "",
    `Accept the invitation: ${input.acceptUrl}`,
    "",
    `New to Client Portals? The link lets you create your account. The link expires in ${input.expiresInDays} days.`,
  ].join("\n");
  const html =
    `<p>Hello,</p>` +
    `<p>${escapeHtml(who)} invited you to join <strong>${escapeHtml(input.orgName)}</strong> on Client Portals as ${input.role === "admin" ? "an admin" : "a member"}.</p>` +
    `<p><a href="${escapeHtml(input.acceptUrl)}">Accept the invitation</a></p>` +
    `<p>New to Client Portals? The link lets you create your account. The link expires in ${input.expiresInDays} days.</p>`;
  return { subject: `Join ${input.orgName} on Client Portals`, text, html };
}
