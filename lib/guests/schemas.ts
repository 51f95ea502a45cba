import { z } from "zod";
import { pageQuery } from "@/lib/pagination";
import { dateTime, pathId } from "@/lib/shared-schemas";
import { isStorableText, UNSTORABLE_TEXT } from "@/lib/text";

// The guest invitation request and answer (spec section 4 Guests, D16).

const MAX_GUESTS_PER_REQUEST = 100;
const MAX_GUEST_NAME_LENGTH = 200;

const emailCheck = z.email();

/** Trimmed and lower-cased, then checked; the message names the address as sent. */
const guestEmail = z
  .string()
  .trim()
  .toLowerCase()
  .refine((v) => emailCheck.safeParse(v).success, { error: (issue) => `Invalid email address "${String(issue.input)}"` })
  .meta({ format: "email" });

const guestName = z.string().trim().max(MAX_GUEST_NAME_LENGTH).refine(isStorableText, UNSTORABLE_TEXT).nullable();

export const GuestsParamsSchema = z.object({ portalId: pathId("Portal") });

export const InviteGuestsBodySchema = z
  .object({
    email: guestEmail.optional().meta({ description: "One guest's address (with `name`)" }),
    name: guestName.optional().meta({ description: "The guest's display name" }),
    emails: z
      .array(guestEmail)
      .max(MAX_GUESTS_PER_REQUEST)
      .optional()
      .meta({ description: "Several addresses, at most 100; trimmed, lower-cased and de-duplicated" }),
    names: z.array(guestName).optional().meta({ description: "`names[i]` is the name of `emails[i]`; optional per address" }),
  })
  .superRefine((body, ctx) => {
    const count = (body.email !== undefined ? 1 : 0) + (body.emails?.length ?? 0);
    if (count === 0) ctx.addIssue({ code: "custom", path: ["email"], message: "Required" });
    if (count > MAX_GUESTS_PER_REQUEST) ctx.addIssue({ code: "custom", path: ["emails"], message: `At most ${MAX_GUESTS_PER_REQUEST} addresses per request` });
    if (body.names && body.names.length > (body.emails?.length ?? 0)) ctx.addIssue({ code: "custom", path: ["names"], message: "More names than emails" });
  });
export type InviteGuestsBody = z.output<typeof InviteGuestsBodySchema>;

const userId = z.string().meta({ format: "uuid", description: "The guest's user id: what `assigned_guest_ids` takes" });

const InvitedGuestSchema = z.object({ user_id: userId, email: z.string() }).meta({ id: "InvitedGuest" });

export const InviteGuestsResponseSchema = z.object({
  success: z.boolean(),
  invited_count: z.int().meta({ description: "Distinct addresses invited or re-invited" }),
  message: z.string(),
  user_id: userId.meta({ description: "Extension: the user id of the first guest of the request (`email`, else `emails[0]`)" }),
  guests: z.array(InvitedGuestSchema).meta({ description: "Extension: every guest of the request in order (de-duplicated), with their user ids" }),
});

export const ListGuestsQuerySchema = pageQuery;

export const GuestSchema = z
  .object({
    user_id: userId,
    email: z.string(),
    name: z.string().nullable(),
    state: z.enum(["invited", "accepted"]).meta({ description: "`accepted` once the guest has accepted an invitation to this portal" }),
    invited_at: dateTime.meta({ description: "First invitation to this portal (the list's order)" }),
    accepted_at: dateTime.nullable(),
    permissions: z
      .object({ view: z.boolean(), download: z.boolean(), upload: z.boolean(), delete_own_uploads: z.boolean() })
      .meta({ description: "What the guest may do in this portal (the organization's defaults at invitation, changed in the web)" }),
  })
  .meta({ id: "Guest" });
export type GuestJson = z.input<typeof GuestSchema>;

export interface GuestToInvite {
  email: string;
  name: string | null;
}

/**
 * The distinct guests of a request, in order: `email` first, then `emails` with `names[i]`.
 * A repeated address keeps its first position and the first non-empty name given for it.
 */
export function guestsOfRequest(body: InviteGuestsBody): GuestToInvite[] {
  const entries: GuestToInvite[] = [];
  if (body.email !== undefined) entries.push({ email: body.email, name: body.name || null });
  (body.emails ?? []).forEach((email, i) => entries.push({ email, name: body.names?.[i] || null }));
  const byEmail = new Map<string, GuestToInvite>();
  for (const entry of entries) {
    const seen = byEmail.get(entry.email);
    if (!seen) byEmail.set(entry.email, { ...entry });
    else if (!seen.name && entry.name) seen.name = entry.name;
  }
  return [...byEmail.values()];
}
