import type { Tx } from "@/lib/db";
import { AppError, notFound } from "@/lib/errors";

/** D8: creating a portal from a template needs a business or enterprise plan (403 plan_required). */
export async function requireTemplatePlan(tx: Tx, orgId: string): Promise<void> {
  const org = await tx.organization.findUnique({ where: { id: orgId }, select: { plan: true } });
  if (!org) throw notFound("Organization");
  if (org.plan !== "business" && org.plan !== "enterprise") {
    throw new AppError("plan_required", "Creating a portal from a template needs a business or enterprise plan");
  }
}
