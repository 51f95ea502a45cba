import { createHash } from "node:crypto";
import { PutObjectCommand } from "@aws-sdk/client-s3";
import { requireOrg } from "@/lib/access/policy";
import type { Viewer } from "@/lib/access/viewer";
import { recordOrganizationChange } from "@/lib/audit/record-audit";
import { db } from "@/lib/db";
import { AppError } from "@/lib/errors";
import { withChange } from "@/lib/events/with-change";
import { deleteObject, readObject } from "@/lib/storage/objects";
import { bucket, s3 } from "@/lib/storage/s3";

// The organization's logo: a PNG or JPEG of at most 512 KB uploaded by an admin,
// stored in S3 under a key made of the org id and the bytes' SHA-256, and served from our own
// origin (the CSP allows images from 'self' only) at /org/<org>/logo/<sha256>. That path is what
// Organization.logoUrl holds; a new upload gets a new path, so the route can cache forever.
// The route is public: email clients fetch it without a session (a logo is not a secret, and
// the path cannot be guessed without the org id and the hash).

export const LOGO_MAX_BYTES = 512 * 1024;
export type LogoType = "image/png" | "image/jpeg";

/** The image type the bytes really are (their signature), or null: never the name or the browser's word. */
function logoType(bytes: Uint8Array): LogoType | null {
  const png = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
  if (bytes.length >= png.length && png.every((b, i) => bytes[i] === b)) return "image/png";
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return "image/jpeg";
  return null;
}

const logoKey = (orgId: string, sha256: string) => `orgs/${orgId}/logo/${sha256}`;
const logoPath = (orgId: string, sha256: string) => `/org/${orgId}/logo/${sha256}`;
const PATH = /^\/org\/([0-9a-f-]{36})\/logo\/([0-9a-f]{64})$/;

const fieldError = (message: string) => new AppError("invalid_request", message, {}, { field: "logo" });

/** Replaces the organization's logo with these bytes (PNG or JPEG, at most 512 KB). */
export async function setOrgLogo({ viewer, bytes }: { viewer: Viewer; bytes: Uint8Array }): Promise<{ logoUrl: string }> {
  requireOrg(viewer, "manageOrganization");
  if (bytes.length === 0) throw fieldError("Choose an image file for the logo");
  if (bytes.length > LOGO_MAX_BYTES) {
    throw fieldError(`The logo is ${Math.ceil(bytes.length / 1024)} KB; at most 512 KB is allowed. Export it smaller (about 400×120 pixels is plenty).`);
  }
  const type = logoType(bytes);
  if (!type) throw fieldError("The logo must be a PNG or JPEG image (other formats, SVG included, are refused).");
  const sha256 = createHash("sha256").update(bytes).digest("hex");
  // The object first: a logoUrl never points at bytes that are not stored.
  await s3().send(new PutObjectCommand({ Bucket: bucket(), Key: logoKey(viewer.orgId, sha256), Body: bytes, ContentType: type }));
  const logoUrl = logoPath(viewer.orgId, sha256);
  const before = await withChange(async (tx) => {
    const org = await tx.organization.findUniqueOrThrow({ where: { id: viewer.orgId }, select: { logoUrl: true } });
    await tx.organization.update({ where: { id: viewer.orgId }, data: { logoUrl } });
    await recordOrganizationChange(tx, viewer, "organization.logo_changed", { before: org.logoUrl, after: logoUrl, bytes: bytes.length, contentType: type });
    return org.logoUrl;
  });
  await dropOldLogo(viewer.orgId, before, logoUrl);
  return { logoUrl };
}

/** Removes the logo: pages and emails show the organization's name only. */
export async function removeOrgLogo({ viewer }: { viewer: Viewer }): Promise<void> {
  requireOrg(viewer, "manageOrganization");
  const before = await withChange(async (tx) => {
    const org = await tx.organization.findUniqueOrThrow({ where: { id: viewer.orgId }, select: { logoUrl: true } });
    if (!org.logoUrl) return null;
    await tx.organization.update({ where: { id: viewer.orgId }, data: { logoUrl: null } });
    await recordOrganizationChange(tx, viewer, "organization.logo_changed", { before: org.logoUrl, after: null });
    return org.logoUrl;
  });
  await dropOldLogo(viewer.orgId, before, null);
}

/** The old object, once nothing points at it (best effort: a leftover costs bytes, not correctness). */
async function dropOldLogo(orgId: string, before: string | null, after: string | null) {
  const old = before ? PATH.exec(before) : null;
  const sha256 = old?.[2];
  if (!sha256 || old[1] !== orgId || before === after) return;
  await deleteObject(logoKey(orgId, sha256)).catch(() => undefined);
}

/**
 * The logo's bytes for the public route, or null when this is not the organization's current
 * logo (an old or made-up hash: 404, so a replaced logo stops being served).
 */
export async function readOrgLogo(orgId: string, sha256: string): Promise<{ bytes: Uint8Array; type: LogoType } | null> {
  if (!/^[0-9a-f-]{36}$/.test(orgId) || !/^[0-9a-f]{64}$/.test(sha256)) return null;
  const org = await db.organization.findUnique({ where: { id: orgId }, select: { logoUrl: true } });
  if (org?.logoUrl !== logoPath(orgId, sha256)) return null;
  const bytes = await readObject(logoKey(orgId, sha256), LOGO_MAX_BYTES);
  const type = logoType(bytes);
  return type ? { bytes, type } : null;
}
