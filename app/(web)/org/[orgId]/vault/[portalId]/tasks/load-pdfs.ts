import type { Viewer } from "@/lib/access/viewer";
import { listPortalFiles } from "@/lib/files/list-files";

/** The portal's PDFs (what a Sign Document can take), by name. */
export async function portalPdfs(viewer: Viewer, portalId: string) {
  const { items } = await listPortalFiles({ viewer, portalId });
  return items
    .filter((f) => !f.isFolder && (f.contentType?.split(";")[0]?.trim().toLowerCase() === "application/pdf" || f.extension === "pdf"))
    .map((f) => ({ id: f.id, name: f.name }))
    .sort((a, b) => a.name.localeCompare(b.name));
}
