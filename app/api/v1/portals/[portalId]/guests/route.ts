import { apiRoute, json } from "@/lib/api";
import { linkHeader } from "@/lib/api/pagination";
import { inviteGuests } from "@/lib/guests/invite-guests";
import { listGuests } from "@/lib/guests/list-guests";
import { inviteGuestsOperation, listGuestsOperation } from "@/lib/api/operations/guests";
import { guestsOfRequest } from "@/lib/guests/schemas";
import { toGuestResponse } from "@/lib/guests/to-response";

// GET /api/v1/portals/{portalId}/guests - the portal's guests with their user ids
export const GET = apiRoute(listGuestsOperation, async ({ viewer, params, query, url }) => {
  const { items, next } = await listGuests({ viewer, portalId: params.portalId, limit: query.limit, cursor: query.cursor });
  return json(items.map(toGuestResponse), 200, linkHeader(url, next));
});

// POST /api/v1/portals/{portalId}/guests - invite guests (all or nothing, D16)
export const POST = apiRoute(inviteGuestsOperation, async ({ viewer, params, body }) => {
  const { invitedCount, invited } = await inviteGuests({ viewer, portalId: params.portalId, guests: guestsOfRequest(body) });
  const message = `Invited ${invitedCount} guest${invitedCount === 1 ? "" : "s"}`;
  const guests = invited.map((g) => ({ user_id: g.userId, email: g.email }));
  return json({ success: true, invited_count: invitedCount, message, user_id: guests[0]!.user_id, guests }, 201);
});
