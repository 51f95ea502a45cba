import { db, type Tx } from "@/lib/db";
import { AppError, notFound } from "@/lib/errors";

type Reader = Pick<Tx, "organization">;

async function apiAccessOf(reader: Reader, orgId: string): Promise<boolean | null> {
  const org = await reader.organization.findUnique({ where: { id: orgId }, select: { plan: true, apiEnabled: true } });
  if (!org) return null;
  // D8: the API needs an enterprise plan with API access enabled (the API's admission checks the
  // same in its statement: lib/oauth/access-token.ts liveGrantQuery).
  return org.plan === "enterprise" && org.apiEnabled;
}

/** Whether the organization may use the API (D8); false for an unknown organization. */
export async function hasApiAccess(orgId: string, reader: Reader = db): Promise<boolean> {
  return (await apiAccessOf(reader, orgId)) === true;
}

/** Throws api_access_disabled unless the organization may use the API (D8). */
export async function requireApiAccess(reader: Reader, orgId: string): Promise<void> {
  const access = await apiAccessOf(reader, orgId);
  if (access === null) throw notFound("Organization");
  if (!access) throw apiAccessDisabled();
}

export const apiAccessDisabled = () => new AppError("api_access_disabled", "API access needs an enterprise plan with API access enabled");
