import { apiRoute, json } from "@/lib/api";
import { inviteGuests } from "@/lib/guests/invite-guests";
import { inviteGuestsOperation } from "@/lib/api/operations/guests";
import { guestsOfRequest } from "@/lib/guests/schemas";

// POST /api/v1/portals/{portalId}/guests - invite guests (all or nothing, D16)
export const POST = apiRoute(inviteGuestsOperation, async ({ viewer, params, body }) => {
  const { invitedCount } = await inviteGuests({ viewer, portalId: params.portalId, guests: guestsOfRequest(body) });
  const message = `Invited ${invitedCount} guest${invitedCount === 1 ? "" : "s"}`;
  return json({ success: true, invited_count: invitedCount, message }, 201);
});
