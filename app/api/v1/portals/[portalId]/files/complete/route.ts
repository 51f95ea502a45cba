import { apiRoute, json } from "@/lib/api";
import { completeUpload } from "@/lib/files/complete-upload";
import { completeUploadOperation } from "@/lib/files/operations";
import { toFileResponse } from "@/lib/files/to-response";

// POST /api/v1/portals/{portalId}/files/complete - register a two-step upload
export const POST = apiRoute(completeUploadOperation, async ({ auth, params, body }) => {
  const file = await completeUpload({
    orgId: auth.orgId,
    actor: auth.actor,
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
