import { requireAnyPortal } from "@/lib/access/policy";
import type { Viewer } from "@/lib/access/viewer";
import type { Cursor } from "@/lib/pagination";
import { systemKeyOf } from "@/lib/external-ids/schemas";
import { loadPortalPage, type PortalRow } from "./portal-record";

export interface ListPortalsInput {
  /** Guests see only the portals they belong to (lib/access). */
  viewer: Viewer;
  templatesOnly?: boolean;
  /** Only the portal holding this (system, id) pair: system case-insensitive, id exact. */
  externalId?: { system: string; value: string };
  limit?: number;
  /** The last item of the previous page. */
  cursor?: Cursor;
}

/**
 * Active (not permanently deleted) portals of an organization, archived ones included, ordered
 * by creation (D5); templates only with `templatesOnly`. `next` is set when more items exist.
 */
export async function listPortals({
  viewer,
  templatesOnly = false,
  externalId,
  limit = 1000,
  cursor,
}: ListPortalsInput): Promise<{ items: PortalRow[]; next: Cursor | null }> {
  requireAnyPortal(viewer, "view");
  const rows = await loadPortalPage({
    viewer,
    templatesOnly,
    externalId: externalId ? { systemKey: systemKeyOf(externalId.system), value: externalId.value } : undefined,
    cursor,
    take: limit + 1,
  });
  // As lib/pagination splitPage, with the row's createdAt as ISO text.
  const items = rows.slice(0, limit);
  const last = items.at(-1);
  return { items, next: rows.length > limit && last ? { createdAt: new Date(last.createdAt), id: last.id } : null };
}
