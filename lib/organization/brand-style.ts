import type { CSSProperties } from "react";
import { db } from "@/lib/db";
import { softTint } from "./brand-colour";

/**
 * An organization's look on its pages: the CSS variables of its brand colour (empty without one)
 * and its logo (a same-origin path, lib/organization/logo.ts) with its name, or null.
 */
export async function orgBrand(orgId: string): Promise<{ style: CSSProperties; logo: { src: string; orgName: string } | null }> {
  const org = await db.organization.findUnique({ where: { id: orgId }, select: { brandColor: true, logoUrl: true, name: true } });
  const colour = org?.brandColor;
  const style = colour && /^#[0-9a-f]{6}$/.test(colour) ? ({ "--color-brand": colour, "--color-brand-soft": softTint(colour) } as CSSProperties) : {};
  // Only our own logo route: the CSP would block anything else anyway.
  const logo = org?.logoUrl?.startsWith(`/org/${orgId}/logo/`) ? { src: org.logoUrl, orgName: org.name } : null;
  return { style, logo };
}
