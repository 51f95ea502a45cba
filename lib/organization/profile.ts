import { z } from "zod";
import { requireOrg } from "@/lib/access/policy";
import { GuestPermissionsSchema, readGuestPermissions, type GuestPermissions } from "@/lib/access/permissions";
import type { Viewer } from "@/lib/access/viewer";
import { recordOrganizationChange } from "@/lib/audit/record-audit";
import { db } from "@/lib/db";
import { AppError } from "@/lib/errors";
import { withChange } from "@/lib/events/with-change";
import { isStorableText } from "@/lib/text";
import { contrastWithWhite, MIN_BRAND_CONTRAST } from "./brand-colour";

// The organization's profile: name and brand colour, edited by admins on the web;
// plan and API access are shown, never edited here. Also the default guest permissions (D16),
// copied into each PortalGuest row by lib/guests/invite-guests when a guest is first invited.

export interface OrgProfile {
  id: string;
  name: string;
  plan: "free" | "business" | "enterprise";
  apiEnabled: boolean;
  brandColor: string | null;
  /** Same-origin path of the logo (lib/organization/logo.ts), or null. */
  logoUrl: string | null;
  defaultGuestPermissions: GuestPermissions;
  /** IANA zone of people without their own (lib/time/settings.ts). */
  defaultTimeZone: string;
}

/** Anyone who belongs to the organization (guests too: their pages show its name and colour). */
export async function getOrgProfile({ viewer }: { viewer: Viewer }): Promise<OrgProfile> {
  const org = await db.organization.findUniqueOrThrow({
    where: { id: viewer.orgId },
    select: { id: true, name: true, plan: true, apiEnabled: true, brandColor: true, logoUrl: true, defaultGuestPermissions: true, defaultTimeZone: true },
  });
  return { ...org, defaultGuestPermissions: readGuestPermissions(org.defaultGuestPermissions) };
}

const fieldError = (field: string, message: string) => new AppError("invalid_request", message, {}, { field });

export const OrgProfileInputSchema = z.object({
  name: z
    .string()
    .trim()
    .min(1, "Enter the organization's name")
    .max(200, "At most 200 characters")
    .refine(isStorableText, "The name contains characters that cannot be stored"),
  /** "" resets to the product's colour. */
  brandColor: z
    .string()
    .trim()
    .transform((v) => v.toLowerCase())
    .refine((v) => v === "" || /^#[0-9a-f]{6}$/.test(v), "Use a hex colour like #1f4e79"),
});

/** Renames the organization and sets (or resets) its brand colour; the colour must be readable on white. */
export async function updateOrgProfile({ viewer, ...input }: { viewer: Viewer } & z.input<typeof OrgProfileInputSchema>) {
  requireOrg(viewer, "manageOrganization");
  const { name, brandColor } = OrgProfileInputSchema.parse(input);
  if (brandColor) {
    const ratio = contrastWithWhite(brandColor);
    if (ratio < MIN_BRAND_CONTRAST) {
      throw fieldError(
        "brandColor",
        `${brandColor} is too light: its contrast with white is ${ratio.toFixed(1)}:1, buttons and links need ${MIN_BRAND_CONTRAST}:1. Choose a darker colour.`,
      );
    }
  }
  return withChange(async (tx) => {
    const before = await tx.organization.findUniqueOrThrow({ where: { id: viewer.orgId }, select: { name: true, brandColor: true } });
    const after = await tx.organization.update({
      where: { id: viewer.orgId },
      data: { name, brandColor: brandColor || null },
      select: { name: true, brandColor: true },
    });
    await recordOrganizationChange(tx, viewer, "organization.updated", { before, after });
    return after;
  });
}

/** The permissions guests invited from now on get; guests already invited keep theirs. */
export async function updateDefaultGuestPermissions({ viewer, permissions }: { viewer: Viewer; permissions: GuestPermissions }) {
  requireOrg(viewer, "manageOrganization");
  const p = GuestPermissionsSchema.parse(permissions);
  // Stored in the shape PortalGuest.permissions uses: {view, download, upload, delete}.
  const stored = { view: p.view, download: p.download, upload: p.upload, delete: p.deleteOwnUploads };
  await withChange(async (tx) => {
    await tx.organization.update({ where: { id: viewer.orgId }, data: { defaultGuestPermissions: stored } });
    await recordOrganizationChange(tx, viewer, "organization.guest_defaults_changed", stored);
  });
  return p;
}
