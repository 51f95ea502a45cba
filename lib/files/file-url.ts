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
const MAX_URL_SECONDS = 300;

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
function isPreviewable(contentType: string | null): boolean {
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

export type PreviewKind = "pdf" | "image" | "text" | "csv" | "other";

export interface FilePreview {
  id: string;
  name: string;
  size: number;
  extension: string;
  contentType: string | null;
  uploadedAt: Date;
  uploader: { name: string | null; email: string } | null;
  task: { id: string; title: string } | null;
  /** How the page shows it; "other": metadata and a download button only. */
  kind: PreviewKind;
  /** The inline URL (at most 5 minutes) the preview loads; null for "other". */
  url: string | null;
}

function kindOf(contentType: string | null): PreviewKind {
  const type = essence(contentType);
  if (!isPreviewable(type)) return "other";
  if (type === "application/pdf") return "pdf";
  if (type === "text/csv") return "csv";
  if (type === "text/plain") return "text";
  return "image";
}

/**
 * The page's `?file=<id>` preview: the file's details and, for PDFs, images, text and CSV, an
 * inline URL valid at most 5 minutes. Same access as getFileUrl (a member, or a guest with
 * `download`); anything else is 404 "File".
 */
export async function getFilePreview({ viewer, portalId, fileId }: { viewer: Viewer; portalId: string; fileId: string }): Promise<FilePreview> {
  requirePortal(viewer, portalId, "download", "File");
  const file = isUuid(fileId)
    ? await db.fileEntry.findFirst({
        where: { AND: [fileWhere(viewer, "download"), { id: fileId, portalId, isFolder: false }] },
        select: {
          id: true,
          name: true,
          size: true,
          extension: true,
          contentType: true,
          registeredAt: true,
          createdAt: true,
          uploadedById: true,
          task: { select: { id: true, title: true, deletedAt: true } },
        },
      })
    : null;
  if (!file) throw notFound("File");
  const uploader = file.uploadedById ? await db.user.findUnique({ where: { id: file.uploadedById }, select: { name: true, email: true } }) : null;
  const kind = kindOf(file.contentType);
  const url = kind === "other" ? null : (await getFileUrl({ viewer, portalId, fileId, mode: "preview" })).url;
  return {
    id: file.id,
    name: file.name,
    size: file.size,
    extension: file.extension,
    contentType: file.contentType,
    uploadedAt: file.registeredAt ?? file.createdAt,
    uploader,
    task: file.task && !file.task.deletedAt ? { id: file.task.id, title: file.task.title } : null,
    kind,
    url,
  };
}
