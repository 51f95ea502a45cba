import { z } from "zod";
import { isUuid } from "@/lib/ids";

// D5: lists stay JSON arrays, ordered by created_at then id. `limit` (1-1000, default 1000) and
// an opaque `cursor` (the created_at and id of the last item of the previous page). Shared by
// the domain's list functions and the API layer, which adds the `Link` header (lib/api/pagination).
//
//   // domain: one extra row tells whether a next page exists
//   const rows = await db.portal.findMany({ where: { ...portalWhere(viewer), ...afterCursor(cursor) },
//     orderBy: PAGE_ORDER, take: limit + 1 });
//   return splitPage(rows, limit);                                    // { items, next }
//   // route: const { items, next } = await listX(...); json(items.map(toX), 200, linkHeader(url, next))

export interface Cursor {
  createdAt: Date;
  id: string;
}

export function encodeCursor(cursor: Cursor): string {
  return Buffer.from(JSON.stringify([cursor.createdAt.toISOString(), cursor.id])).toString("base64url");
}

export function decodeCursor(value: string): Cursor | null {
  try {
    const parsed: unknown = JSON.parse(Buffer.from(value, "base64url").toString("utf8"));
    if (!Array.isArray(parsed) || parsed.length !== 2) return null;
    const [at, id] = parsed as unknown[];
    if (typeof at !== "string" || !isUuid(id)) return null;
    const createdAt = new Date(at);
    if (Number.isNaN(createdAt.getTime()) || createdAt.toISOString() !== at) return null;
    return { createdAt, id };
  } catch {
    return null;
  }
}

const cursorParam = z
  .string()
  .transform((value, ctx) => {
    const cursor = decodeCursor(value);
    if (!cursor) {
      ctx.addIssue({ code: "custom", message: "Invalid cursor" });
      return z.NEVER;
    }
    return cursor;
  })
  .meta({ description: "Opaque cursor from the previous page's Link header" });

export const MAX_PAGE_SIZE = 1000;

export const pageQuery = z.object({
  limit: z.coerce.number().int().min(1).max(MAX_PAGE_SIZE).default(MAX_PAGE_SIZE).meta({ description: "Items per page (1-1000)" }),
  cursor: cursorParam.optional(),
});

/** Prisma `orderBy` of every list (a mutable tuple: Prisma's input types are not readonly). */
export const PAGE_ORDER: [{ createdAt: "asc" }, { id: "asc" }] = [{ createdAt: "asc" }, { id: "asc" }];

/** A `where` fragment: rows strictly after the cursor in (createdAt, id) order. */
export function afterCursor(cursor: Cursor | undefined) {
  if (!cursor) return {};
  return { OR: [{ createdAt: { gt: cursor.createdAt } }, { createdAt: cursor.createdAt, id: { gt: cursor.id } }] };
}

/** Given `limit + 1` rows: the page, and the cursor of its last item when more rows exist. */
export function splitPage<Row extends Cursor>(rows: readonly Row[], limit: number): { items: Row[]; next: Cursor | null } {
  const items = rows.slice(0, limit);
  const last = items.at(-1);
  return { items, next: rows.length > limit && last ? { createdAt: last.createdAt, id: last.id } : null };
}
