import type { FilePreview } from "@/lib/files/file-url";
import type { PreviewFile } from "./file-preview";

/** What the preview dialog shows of a file (getFilePreview's answer), for the firm's pages and the client's alike. */
export function previewFileOf(preview: FilePreview, downloadHref: string): PreviewFile {
  return {
    id: preview.id,
    name: preview.name,
    size: preview.size,
    contentType: preview.contentType,
    uploadedAt: preview.uploadedAt.toISOString(),
    uploader: preview.uploader ? (preview.uploader.name ?? preview.uploader.email) : null,
    task: preview.task?.title ?? null,
    kind: preview.kind,
    url: preview.url,
    downloadHref,
  };
}
