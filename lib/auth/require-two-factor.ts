import { requireOrg } from "@/lib/access/policy";
import type { Role, Viewer } from "@/lib/access/viewer";
import { recordOrganizationChange } from "@/lib/audit/record-audit";
import { hasSecondFactor } from "@/lib/auth/two-factor";
import { db } from "@/lib/db";
import { AppError } from "@/lib/errors";
import { withChange } from "@/lib/events/with-change";

// An organization's rule that its members and admins use two-factor authentication (TOTP or a
// passkey). Guests are exempt (they may sign in by emailed link). Checked by the organization's
// pages (which lead to the enrolment page) and by its web actions (refused).

export const TWO_FACTOR_PATH = "/account/two-factor";

/** Whether `userId`, with `role` in `orgId`, must enrol before using the organization. */
export async function mustEnrolTwoFactor({ orgId, userId, role }: { orgId: string; userId: string; role: Role }): Promise<boolean> {
  // One query for organizations without the rule (most); a second only where it applies.
  if (role === "guest" || !(await isTwoFactorRequired(orgId))) return false;
  return !(await hasSecondFactor(userId));
}

export const twoFactorRequired = () =>
  new AppError("forbidden", "This organization requires two-factor authentication: turn it on under Two-factor authentication in your account first");

/** Admins turn the rule on or off (audited). */
export async function setRequireTwoFactor({ viewer, required }: { viewer: Viewer; required: boolean }): Promise<void> {
  requireOrg(viewer, "manageOrganization");
  // The admin would otherwise lock themselves out of the settings they just changed.
  if (required && viewer.kind === "user" && !(await hasSecondFactor(viewer.userId))) {
    throw new AppError("invalid_request", "Turn on two-factor authentication for your own account first, then require it of the members");
  }
  await withChange(async (tx) => {
    await tx.organization.update({ where: { id: viewer.orgId }, data: { requireTwoFactor: required } });
    await recordOrganizationChange(tx, viewer, required ? "organization.two_factor_required" : "organization.two_factor_optional");
  });
}

export async function isTwoFactorRequired(orgId: string): Promise<boolean> {
  return (await db.organization.count({ where: { id: orgId, requireTwoFactor: true } })) > 0;
}
