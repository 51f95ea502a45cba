import { requireOrg } from "@/lib/access/policy";
import type { Viewer } from "@/lib/access/viewer";
import { afterCursor, PAGE_ORDER, type Cursor } from "@/lib/api/pagination";
import { db } from "@/lib/db";

/**
 * The organization's webhooks in creation order (D5); toWebhook() shapes each for the API, secret
 * included (spec: the list returns it). Ask for `limit + 1` to paginate.
 */
export async function listWebhooks({ viewer, cursor, take }: { viewer: Viewer; cursor?: Cursor; take?: number }) {
  requireOrg(viewer, "manageWebhooks");
  return db.webhook.findMany({ where: { orgId: viewer.orgId, ...afterCursor(cursor) }, orderBy: PAGE_ORDER, take });
}
