import { escapeHtml } from "@/lib/email/escape";

export interface InvitationAcceptedEmailInput {
  /** Who accepted: their name, else their address. */
  who: string;
  email: string;
  /** "the portal “Acme Ltd”" for a guest, "Demo LLP as a member" for a colleague. */
  what: string;
  url: string;
}

/** To the person who sent an invitation, once it is accepted (notification kind "invitations"). */
export function invitationAcceptedEmail(input: InvitationAcceptedEmailInput) {
  const who = input.who === input.email ? input.email : `${input.who} (${input.email})`;
  return {
    subject: `${input.who} accepted your invitation to ${input.what}`,
    text: `${who} accepted your invitation to ${input.what}.\n\nOpen it: ${input.url}\n\nYou get this email because invitation notifications are on in your settings.`,
    html:
      `<p>${escapeHtml(who)} accepted your invitation to ${escapeHtml(input.what)}.</p>` +
      `<p><a href="${escapeHtml(input.url)}">Open it</a></p>` +
      `<p>You get this email because invitation notifications are on in your settings.</p>`,
  };
}
