import type { Viewer } from "@/lib/access/viewer";
import type { Cursor } from "@/lib/pagination";
import { db } from "@/lib/db";
import { invalidRequest } from "@/lib/errors";
import type { Prisma } from "@/lib/generated/prisma/client";
import { accessPortal } from "@/lib/access/access-portal";

/** What a portal's history can be filtered by (D28): the first part of the audit action. */
export const HISTORY_KINDS = ["portal", "file", "folder", "task", "guest", "partner_link"] as const;
export type HistoryKind = (typeof HISTORY_KINDS)[number];

export interface HistoryEntry {
  id: string;
  createdAt: Date;
  action: string;
  targetType: string;
  targetId: string | null;
  metadata: Prisma.JsonValue;
  /** The person; null for the system (nightly jobs, template copies). */
  actor: { id: string; name: string | null; email: string } | null;
  /** The OAuth app the change came through; null on the web and for the system. */
  client: { id: string; name: string } | null;
}

/**
 * A portal's history (D28), newest first, `limit` (1-200) rows a page from `cursor` (the last row
 * of the previous page), optionally only one kind (`file`: the `file.*` actions).
 * Each row with who (name, email) and through which OAuth app. Members and admins only; 404 for
 * a portal that is not theirs.
 */
export async function listPortalAudit({
  viewer,
  portalId,
  limit = 50,
  cursor,
  kind,
}: {
  viewer: Viewer;
  portalId: string;
  limit?: number;
  cursor?: Cursor;
  kind?: HistoryKind;
}): Promise<{ items: HistoryEntry[]; next: Cursor | null }> {
  if (kind !== undefined && !HISTORY_KINDS.includes(kind)) throw invalidRequest(`kind: One of ${HISTORY_KINDS.join(", ")}`);
  if (!Number.isInteger(limit) || limit < 1 || limit > 200) throw invalidRequest("limit: A whole number from 1 to 200");
  await accessPortal(viewer, portalId, "viewHistory");
  const before = cursor ? { OR: [{ createdAt: { lt: cursor.createdAt } }, { createdAt: cursor.createdAt, id: { lt: cursor.id } }] } : {};
  const rows = await db.auditLog.findMany({
    where: { orgId: viewer.orgId, portalId, ...(kind ? { action: { startsWith: `${kind}.` } } : {}), ...before },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: limit + 1,
  });
  const page = rows.slice(0, limit);
  const userIds = [...new Set(page.flatMap((r) => (r.actorUserId ? [r.actorUserId] : [])))];
  const clientIds = [...new Set(page.flatMap((r) => (r.oauthClientId ? [r.oauthClientId] : [])))];
  const [users, clients] = await Promise.all([
    db.user.findMany({ where: { id: { in: userIds } }, select: { id: true, name: true, email: true } }),
    db.oAuthClient.findMany({ where: { id: { in: clientIds }, orgId: viewer.orgId }, select: { id: true, name: true } }),
  ]);
  const userById = new Map(users.map((u) => [u.id, u]));
  const clientById = new Map(clients.map((c) => [c.id, c]));
  const last = page.at(-1);
  return {
    items: page.map((r) => ({
      id: r.id,
      createdAt: r.createdAt,
      action: r.action,
      targetType: r.targetType,
      targetId: r.targetId,
      metadata: r.metadata,
      actor: r.actorUserId ? (userById.get(r.actorUserId) ?? null) : null,
      client: r.oauthClientId ? (clientById.get(r.oauthClientId) ?? null) : null,
    })),
    next: rows.length > limit && last ? { createdAt: last.createdAt, id: last.id } : null,
  };
}
