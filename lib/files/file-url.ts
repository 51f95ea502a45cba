import contentDisposition from "content-disposition";
import { fileWhere, requirePortal } from "@/lib/access/policy";
import type { Viewer } from "@/lib/access/viewer";
import { db } from "@/lib/db";
import { invalidRequest, notFound } from "@/lib/errors";
import { isUuid } from "@/lib/ids";
import { presignGet } from "@/lib/storage/objects";

// Signed download and preview URLs for the web application (D27): short-lived, minted only for a
// signed-in member or a guest of the portal with `download`, never for an OAuth client.

/** D27: at most 5 minutes. */
export const MAX_URL_SECONDS = 300;

/**
 * Media types the browser may show inline (preview): PDFs, raster images, plain text and CSV,
 * each served as itself (text with UTF-8). Never HTML, SVG, XML or script: those download.
 */
const INLINE_TYPES: Record<string, string> = {
  "application/pdf": "application/pdf",
  "image/png": "image/png",
  "image/jpeg": "image/jpeg",
  "image/gif": "image/gif",
  "image/webp": "image/webp",
  "image/avif": "image/avif",
  "text/plain": "text/plain; charset=utf-8",
  "text/csv": "text/csv; charset=utf-8",
};

/** The stored type without parameters, lower-cased ("Text/Plain; charset=x" → "text/plain"). */
const essence = (contentType: string | null) => (contentType ?? "").split(";")[0]!.trim().toLowerCase();

/** Whether a file can be previewed in the page (the preview URL serves it inline). */
export function isPreviewable(contentType: string | null): boolean {
  return essence(contentType) in INLINE_TYPES;
}

export interface FileUrl {
  url: string;
  expiresIn: number;
  /** Whether the URL shows the file in the browser (preview) rather than downloading it. */
  inline: boolean;
}

/**
 * A presigned GET for one registered file: `download` saves it (`Content-Disposition: attachment`
 * with the file's name, UTF-8 safe); `preview` shows it inline when its type is one of the safe
 * ones above and otherwise downloads it as `application/octet-stream`. Folders, deleted entries
 * and other portals' files are 404.
 */
export async function getFileUrl({
  viewer,
  portalId,
  fileId,
  mode = "download",
  expiresIn = MAX_URL_SECONDS,
}: {
  viewer: Viewer;
  portalId: string;
  fileId: string;
  mode?: "download" | "preview";
  expiresIn?: number;
}): Promise<FileUrl> {
  requirePortal(viewer, portalId, "download", "File");
  if (!Number.isInteger(expiresIn) || expiresIn < 1 || expiresIn > MAX_URL_SECONDS) throw invalidRequest(`expiresIn: 1 to ${MAX_URL_SECONDS} seconds`);
  const file = isUuid(fileId)
    ? await db.fileEntry.findFirst({
        where: { AND: [fileWhere(viewer, "download"), { id: fileId, portalId, isFolder: false }] },
        select: { name: true, contentType: true, storageKey: true },
      })
    : null;
  if (!file?.storageKey) throw notFound("File");
  const inline = mode === "preview" && isPreviewable(file.contentType);
  const url = await presignGet({
    key: file.storageKey,
    expiresIn,
    contentType: inline ? INLINE_TYPES[essence(file.contentType)]! : "application/octet-stream",
    // The plain `filename` fallback is ASCII only (headers with Latin-1 bytes arrive mangled).
    contentDisposition: contentDisposition(file.name, { type: inline ? "inline" : "attachment", fallback: file.name.replace(/[^\x20-\x7e]/g, "?") }),
  });
  return { url, expiresIn, inline };
}
