import { z } from "zod";

// What a guest may do in one portal (PortalGuest.permissions). The organization's defaults are
// copied into the row at invitation and stored as written there: {view, download, upload, delete}.
// `delete` means "delete their own uploads" and is read as `deleteOwnUploads`; a key that is
// missing (rows written before the defaults had it, test rows written as `{}`) reads as the
// organization default's value, so no stored row needs a migration.

const DEFAULT_GUEST_PERMISSIONS = { view: true, download: true, upload: true, deleteOwnUploads: false } as const;

const flag = z.boolean().optional();

export const GuestPermissionsSchema = z.object({ view: flag, download: flag, upload: flag, delete: flag, deleteOwnUploads: flag }).transform((stored) => ({
  view: stored.view ?? DEFAULT_GUEST_PERMISSIONS.view,
  download: stored.download ?? DEFAULT_GUEST_PERMISSIONS.download,
  upload: stored.upload ?? DEFAULT_GUEST_PERMISSIONS.upload,
  deleteOwnUploads: stored.deleteOwnUploads ?? stored.delete ?? DEFAULT_GUEST_PERMISSIONS.deleteOwnUploads,
}));

export type GuestPermissions = z.output<typeof GuestPermissionsSchema>;
export type GuestPermission = keyof GuestPermissions;

const NOTHING: GuestPermissions = { view: false, download: false, upload: false, deleteOwnUploads: false };

/**
 * A stored permissions value (any JSON) as typed permissions; never throws. A value that is not
 * such an object (a flag that is not a boolean, an array) grants nothing rather than the defaults.
 */
export function readGuestPermissions(stored: unknown): GuestPermissions {
  const parsed = GuestPermissionsSchema.safeParse(stored);
  return parsed.success ? parsed.data : NOTHING;
}
