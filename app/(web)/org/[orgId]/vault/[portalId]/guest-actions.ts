"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import type { PortalActionState } from "@/components/portal-workspace/state";
import { inviteGuests } from "@/lib/guests/invite-guests";
import { removeGuest, resendInvitation } from "@/lib/guests/manage-guests";
import { guestsOfRequest, InviteGuestsBodySchema } from "@/lib/guests/schemas";
import { portalViewPath } from "@/lib/links";
import { orgAction } from "@/lib/web/org-action";

// The guests tab: the same inviteGuests as POST /portals/{id}/guests (D16: trimmed, lower-cased,
// de-duplicated, at most 100), so the same rows, emails, guest.invited events and audit rows.

const member = { minRole: "member", returnTo: (orgId: string) => `/org/${orgId}` } as const;
const refresh = (orgId: string, portalId: string) => revalidatePath(portalViewPath(orgId, portalId, "guests"));

/** Addresses as typed: separated by commas, semicolons, spaces or lines. */
const splitEmails = (text: string) => text.split(/[\s,;]+/).filter(Boolean);

export const inviteGuestsAction = orgAction(
  { ...member, fields: ["emails", "name"], input: z.object({ portalId: z.string(), emails: z.string(), name: z.string().default("") }) },
  async ({ orgId, viewer }, input): Promise<PortalActionState> => {
    const emails = splitEmails(input.emails);
    if (emails.length === 0) return { fieldErrors: { emails: "Type at least one email address" } };
    // One address may carry the name typed beside it; several are invited by address only.
    const parsed = InviteGuestsBodySchema.safeParse({ emails, names: emails.length === 1 && input.name.trim() ? [input.name] : undefined });
    if (!parsed.success) return { fieldErrors: { emails: parsed.error.issues[0]!.message } };
    const { invitedCount } = await inviteGuests({ viewer, portalId: input.portalId, guests: guestsOfRequest(parsed.data) });
    refresh(orgId, input.portalId);
    return { done: Date.now(), message: invitedCount === 1 ? "Invitation sent" : `${invitedCount} invitations sent` };
  },
);

const byGuest = z.object({ portalId: z.string(), guestId: z.string() });

export const resendInvitationAction = orgAction({ ...member, input: byGuest }, async ({ orgId, viewer }, input): Promise<PortalActionState> => {
  await resendInvitation({ viewer, portalId: input.portalId, guestId: input.guestId });
  refresh(orgId, input.portalId);
  return { done: Date.now() };
});

export const removeGuestAction = orgAction({ ...member, input: byGuest }, async ({ orgId, viewer }, input): Promise<PortalActionState> => {
  await removeGuest({ viewer, portalId: input.portalId, guestId: input.guestId });
  refresh(orgId, input.portalId);
  return { done: Date.now() };
});
