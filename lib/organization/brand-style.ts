import type { CSSProperties } from "react";
import { db } from "@/lib/db";
import { softTint } from "./brand-colour";

/** The CSS variables that give an organization's pages its brand colour; empty without one. */
export async function brandStyle(orgId: string): Promise<CSSProperties> {
  const org = await db.organization.findUnique({ where: { id: orgId }, select: { brandColor: true } });
  const colour = org?.brandColor;
  if (!colour || !/^#[0-9a-f]{6}$/.test(colour)) return {};
  return { "--color-brand": colour, "--color-brand-soft": softTint(colour) } as CSSProperties;
}
