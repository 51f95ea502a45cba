import { requireOrg } from "@/lib/access/policy";
import type { Viewer } from "@/lib/access/viewer";
import { recordOrganizationChange } from "@/lib/audit/record-audit";
import { db } from "@/lib/db";
import { AppError } from "@/lib/errors";
import { withChange } from "@/lib/events/with-change";
import { DEFAULT_TIME_ZONE, TimeZoneSchema } from "./zones";

// Whose zone a date is written in: the person's own (chosen in their settings, or detected in
// their browser once), else the organization's default, else UTC.

/** A valid zone, or a 400 at the form's field naming the fix. */
function parseZone(field: string, timeZone: string): string {
  const parsed = TimeZoneSchema.safeParse(timeZone);
  if (!parsed.success) throw new AppError("invalid_request", parsed.error.issues[0]!.message, {}, { field });
  return parsed.data;
}

/**
 * The zone a person sees and is mailed in. `orgId`: the organization the page or email belongs
 * to (its default applies to people without a zone of their own). `saved`: whether the person
 * has one.
 */
export async function timeZoneOf({ userId, orgId }: { userId: string | null; orgId?: string | null }): Promise<{ zone: string; saved: boolean }> {
  const user = userId ? await db.user.findUnique({ where: { id: userId }, select: { timeZone: true } }) : null;
  if (user?.timeZone) return { zone: user.timeZone, saved: true };
  return { zone: await orgTimeZone(orgId ?? null), saved: false };
}

/** The user's own choice (the session decides who; there is nobody else to check). */
export async function setUserTimeZone({ userId, timeZone }: { userId: string; timeZone: string }): Promise<string> {
  const zone = parseZone("timeZone", timeZone);
  await db.user.update({ where: { id: userId }, data: { timeZone: zone } });
  return zone;
}

/**
 * The zone the user's browser reports, kept when the user has none yet (a choice made in the
 * settings is never overwritten). True when it was kept; an invalid name is ignored.
 */
export async function adoptDetectedTimeZone({ userId, timeZone }: { userId: string; timeZone: string }): Promise<boolean> {
  const parsed = TimeZoneSchema.safeParse(timeZone);
  if (!parsed.success) return false;
  const { count } = await db.user.updateMany({ where: { id: userId, timeZone: null }, data: { timeZone: parsed.data } });
  return count === 1;
}

/** The organization's default zone (admins): emails, digests and pages of people without their own. */
export async function setOrgDefaultTimeZone({ viewer, timeZone }: { viewer: Viewer; timeZone: string }): Promise<string> {
  requireOrg(viewer, "manageOrganization");
  const zone = parseZone("defaultTimeZone", timeZone);
  await withChange(async (tx) => {
    const before = await tx.organization.findUniqueOrThrow({ where: { id: viewer.orgId }, select: { defaultTimeZone: true } });
    await tx.organization.update({ where: { id: viewer.orgId }, data: { defaultTimeZone: zone } });
    await recordOrganizationChange(tx, viewer, "organization.updated", { before, after: { defaultTimeZone: zone } });
  });
  return zone;
}

/** The organization's default zone (emails to people without one of their own); UTC without an organization. */
export async function orgTimeZone(orgId: string | null): Promise<string> {
  const org = orgId ? await db.organization.findUnique({ where: { id: orgId }, select: { defaultTimeZone: true } }) : null;
  return org?.defaultTimeZone ?? DEFAULT_TIME_ZONE;
}
