import type { ListedGuest } from "./list-guests";
import type { GuestJson } from "./schemas";

/** A Guest as the API returns it. */
export function toGuestResponse(g: ListedGuest): GuestJson {
  return {
    user_id: g.userId,
    email: g.email,
    name: g.name,
    state: g.state,
    invited_at: g.invitedAt,
    accepted_at: g.acceptedAt,
    permissions: {
      view: g.permissions.view,
      download: g.permissions.download,
      upload: g.permissions.upload,
      delete_own_uploads: g.permissions.deleteOwnUploads,
    },
  };
}
