import { escapeHtml } from "@/lib/email/escape";

export interface InvitationEmailInput {
  acceptUrl: string;
  portalName: string;
  orgName: string;
  inviterName: string | null;
  guestName: string | null;
  expiresInDays: number;
}

/** The invitation to a portal; the link lets a new user create an account or an existing one sign in. */
export function invitationEmail(input: InvitationEmailInput) {
  const who = input.inviterName ? `${input.inviterName} (${input.orgName})` : input.orgName;
  const hello = input.guestName ? `Hello ${input.guestName},` : "Hello,";
  const text = [
    hello,
    "",
    `${who} invited you to the portal "${input.portalName}" on Client Portals.`,
    "",
    `Accept the invitation: ${input.acceptUrl}`,
    "",
    `New to Client Portals? The link lets you create your account. The link expires in ${input.expiresInDays} days.`,
  ].join("\n");
  const html =
    `<p>${escapeHtml(hello)}</p>` +
    `<p>${escapeHtml(who)} invited you to the portal <strong>${escapeHtml(input.portalName)}</strong> on Client Portals.</p>` +
    `<p><a href="${escapeHtml(input.acceptUrl)}">Accept the invitation</a></p>` +
    `<p>New to Client Portals? The link lets you create your account. The link expires in ${input.expiresInDays} days.</p>`;
  return { subject: `You are invited to ${input.portalName}`, text, html };
}
