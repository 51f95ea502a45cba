import { afterCursor, PAGE_ORDER, type Cursor } from "@/lib/api/pagination";
import { db } from "@/lib/db";

/**
 * The organization's webhooks in creation order (D5); toWebhook() shapes each for the API, secret
 * included (spec: the list returns it). Ask for `limit + 1` to paginate.
 */
export async function listWebhooks({ orgId, cursor, take }: { orgId: string; cursor?: Cursor; take?: number }) {
  return db.webhook.findMany({ where: { orgId, ...afterCursor(cursor) }, orderBy: PAGE_ORDER, take });
}
