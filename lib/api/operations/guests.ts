import { defineOperation } from "@/lib/api/operation";
import { GuestsParamsSchema, InviteGuestsBodySchema, InviteGuestsResponseSchema } from "@/lib/guests/schemas";

// The guest operation of spec section 4, served by app/api/v1/portals/[portalId]/guests/route.ts.

export const inviteGuestsOperation = defineOperation({
  method: "POST",
  path: "/api/v1/portals/{portalId}/guests",
  operationId: "inviteGuests",
  summary: "Invite one or several guests to a portal",
  description:
    "`email` and `name` for one guest, or `emails` and `names` (`names[i]` for `emails[i]`) for several, at most 100. Addresses are trimmed, lower-cased and de-duplicated; one invalid address refuses the whole request (400 naming it) and nobody is invited. Each guest gets the organization's default portal permissions and an invitation email whose link lets a new user create an account and an existing user sign in (valid 14 days); an already invited guest gets a new invitation. Fires `guest.invited` per guest.",
  tag: "Guests",
  scope: "guest:invite",
  params: GuestsParamsSchema,
  body: InviteGuestsBodySchema,
  responses: { 201: InviteGuestsResponseSchema },
  errors: { 400: "invalid_request: a missing or invalid email address (named), or more than 100 addresses" },
});
