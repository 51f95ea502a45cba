import type { Tx } from "@/lib/db";
import { AppError, notFound } from "@/lib/errors";

/** API access needs an enterprise plan with API access enabled (D8). */
export async function requireApiAccess(tx: Tx, orgId: string): Promise<void> {
  const org = await tx.organization.findUnique({ where: { id: orgId }, select: { plan: true, apiEnabled: true } });
  if (!org) throw notFound("Organization");
  if (org.plan !== "enterprise" || !org.apiEnabled) {
    throw new AppError("api_access_disabled", "API access needs an enterprise plan with API access enabled");
  }
}
