import type { FileEntry } from "@/lib/generated/prisma/client";
import { fileWebUrl } from "@/lib/links";
import type { FileJson } from "./schemas";

/** A File entry as the API returns it (spec section 2, D10). */
export function toFileResponse(entry: FileEntry): FileJson {
  return {
    id: entry.id,
    name: entry.name,
    vault_id: entry.portalId,
    org_id: entry.orgId,
    size: entry.isFolder ? 0 : entry.size,
    extension: entry.isFolder ? "" : entry.extension,
    parent_folder_file_id: entry.parentId,
    uploaded_at: entry.registeredAt ?? entry.createdAt,
    uploaded_by: entry.uploadedById,
    is_folder: entry.isFolder,
    content_type: entry.isFolder ? null : entry.contentType,
    task_id: entry.taskId,
    web_url: fileWebUrl(entry.orgId, entry.portalId, entry.id),
  };
}
