import { z } from "zod";
import { defineOperation } from "@/lib/api/operation";
import { GuestSchema, GuestsParamsSchema, InviteGuestsBodySchema, InviteGuestsResponseSchema, ListGuestsQuerySchema } from "@/lib/guests/schemas";

// The guest operations, served by app/api/v1/portals/[portalId]/guests/route.ts: the invitation of
// spec section 4 and the guest list (an extension of the contract, docs/api.md).

export const listGuestsOperation = defineOperation({
  method: "GET",
  path: "/api/v1/portals/{portalId}/guests",
  operationId: "listGuests",
  summary: "List a portal's guests with their user ids (extension)",
  description:
    "Guests of the portal in the order they were first invited (a re-invitation keeps a guest's place), invited or accepted, with the permissions they have in it. `user_id` is what `assigned_guest_ids` takes. Needs `portal:read`: reading who has access to a portal is reading the portal, and an integration that only assigns tasks need not ask for the right to invite.",
  tag: "Guests",
  scope: "portal:read",
  params: GuestsParamsSchema,
  query: ListGuestsQuerySchema,
  responses: { 200: z.array(GuestSchema) },
});

export const inviteGuestsOperation = defineOperation({
  method: "POST",
  path: "/api/v1/portals/{portalId}/guests",
  operationId: "inviteGuests",
  summary: "Invite one or several guests to a portal",
  description:
    "`email` and `name` for one guest, or `emails` and `names` (`names[i]` for `emails[i]`) for several, at most 100. Addresses are trimmed, lower-cased and de-duplicated; one invalid address refuses the whole request (400 naming it) and nobody is invited. Each guest gets the organization's default portal permissions and an invitation email whose link lets a new user create an account and an existing user sign in (valid 14 days); an already invited guest gets a new invitation. Fires `guest.invited` per guest (with the guest's `user_id`). The answer's `user_id` and `guests` are extensions of the contract.",
  tag: "Guests",
  scope: "guest:invite",
  params: GuestsParamsSchema,
  body: InviteGuestsBodySchema,
  responses: { 201: InviteGuestsResponseSchema },
  errors: { 400: "invalid_request: a missing or invalid email address (named), or more than 100 addresses" },
});

export const guestOperations = [listGuestsOperation, inviteGuestsOperation] as const;
