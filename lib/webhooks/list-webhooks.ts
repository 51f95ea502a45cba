import { requireOrg } from "@/lib/access/policy";
import type { Viewer } from "@/lib/access/viewer";
import { afterCursor, MAX_PAGE_SIZE, PAGE_ORDER, splitPage, type Cursor } from "@/lib/pagination";
import { db } from "@/lib/db";

/**
 * A page of the organization's webhooks in creation order (D5) and the cursor of the next page,
 * like every list; toWebhook() shapes each for the API, secret included (spec: the list returns it).
 */
export async function listWebhooks({ viewer, cursor, limit = MAX_PAGE_SIZE }: { viewer: Viewer; cursor?: Cursor; limit?: number }) {
  requireOrg(viewer, "manageWebhooks");
  const rows = await db.webhook.findMany({ where: { orgId: viewer.orgId, ...afterCursor(cursor) }, orderBy: PAGE_ORDER, take: limit + 1 });
  return splitPage(rows, limit);
}
