import { apiRoute, json } from "@/lib/api";
import { linkHeader } from "@/lib/api/pagination";
import { listPortalFiles } from "@/lib/files/list-files";
import { listFilesOperation, uploadFileOperation } from "@/lib/api/operations/files";
import { startUpload } from "@/lib/files/start-upload";
import { toFileResponse } from "@/lib/files/to-response";
import { uploadFromUrl } from "@/lib/files/upload-from-url";

// GET /api/v1/portals/{portalId}/files - the portal's files and folders, flat
export const GET = apiRoute(listFilesOperation, async ({ viewer, params, query, url }) => {
  const { items, next } = await listPortalFiles({ viewer, portalId: params.portalId, limit: query.limit, cursor: query.cursor });
  return json(items.map(toFileResponse), 200, linkHeader(url, next));
});

// POST /api/v1/portals/{portalId}/files - one-step (file_url) or the start of a two-step upload
export const POST = apiRoute(uploadFileOperation, async ({ viewer, params, body }) => {
  const common = {
    viewer,
    portalId: params.portalId,
    filename: body.filename,
    contentType: body.contentType,
    parentId: body.parent_folder_file_id ?? null,
    taskId: body.task_id ?? null,
  };
  if (body.file_url !== undefined) {
    const file = await uploadFromUrl({ ...common, fileUrl: body.file_url });
    return json({ id: file.id, name: file.name, extension: file.extension, size: file.size, created_date: file.createdAt }, 201);
  }
  const ticket = await startUpload({ ...common, size: body.size });
  return json({
    file_id: ticket.fileId,
    upload_url: ticket.uploadUrl,
    expires_in: ticket.expiresIn,
    method: "PUT" as const,
    headers: { "Content-Type": ticket.contentType },
  });
});
