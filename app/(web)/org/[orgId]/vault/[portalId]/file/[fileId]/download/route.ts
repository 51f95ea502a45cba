import { type NextRequest } from "next/server";
import { findUserViewer } from "@/lib/access/viewer";
import { currentUser } from "@/lib/auth/session";
import { isAppError } from "@/lib/errors";
import { getFileUrl } from "@/lib/files/file-url";
import { isUuid } from "@/lib/ids";

type Params = { orgId: string; portalId: string; fileId: string };

/** One answer for everything the viewer may not have: signed out, another organization, no download right, no such file. */
function notFound(): Response {
  return new Response("Not found: this file does not exist, or you do not have access to it.", {
    status: 404,
    headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" },
  });
}

/**
 * A file's download (D27): for a signed-in member of the organization, or a guest of the portal
 * with `download`, a 303 to a storage URL signed for at most 5 minutes, as an attachment named
 * after the file; `?inline=1` shows PDFs, images, text and CSV in the browser (previews), anything
 * else still downloads. Never through /api/v1, never for an OAuth client.
 */
export async function GET(req: NextRequest, { params }: { params: Promise<Params> }): Promise<Response> {
  const { orgId, portalId, fileId } = await params;
  if (!isUuid(orgId) || !isUuid(portalId) || !isUuid(fileId)) return notFound();
  const user = await currentUser();
  if (!user) return notFound();
  const viewer = await findUserViewer(user.id, orgId);
  if (!viewer) return notFound();
  try {
    const inline = req.nextUrl.searchParams.get("inline") === "1";
    const { url } = await getFileUrl({ viewer, portalId, fileId, mode: inline ? "preview" : "download" });
    return new Response(null, {
      status: 303,
      // The signed URL is a short-lived secret: not cached.
      headers: { Location: url, "Cache-Control": "no-store" },
    });
  } catch (e) {
    if (isAppError(e) && (e.code === "not_found" || e.code === "forbidden")) return notFound();
    throw e;
  }
}
