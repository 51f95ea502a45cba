import { apiRoute, json } from "@/lib/api";
import { completeUpload } from "@/lib/files/complete-upload";
import { completeUploadOperation } from "@/lib/api/operations/files";
import { toFileResponse } from "@/lib/files/to-response";

// POST /api/v1/portals/{portalId}/files/complete - register a two-step upload
export const POST = apiRoute(completeUploadOperation, async ({ viewer, params, body }) => {
  const file = await completeUpload({
    viewer,
    portalId: params.portalId,
    fileId: body.file_id,
    filename: body.filename,
    extension: body.extension,
    size: body.size,
    parentId: body.parent_folder_file_id,
    taskId: body.task_id,
  });
  return json(toFileResponse(file), 201);
});
