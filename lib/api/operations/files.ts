import { z } from "zod";
import { defineOperation } from "@/lib/api/operation";
import {
  CompleteUploadBodySchema,
  FileSchema,
  FilesParamsSchema,
  ListFilesQuerySchema,
  UploadedFileSchema,
  UploadFileBodySchema,
  UploadTicketSchema,
} from "@/lib/files/schemas";

// The file operations of spec section 4, served by app/api/v1/portals/[portalId]/files/**/route.ts.

export const listFilesOperation = defineOperation({
  method: "GET",
  path: "/api/v1/portals/{portalId}/files",
  operationId: "listFiles",
  summary: "List a portal's files and folders (metadata only)",
  description:
    "Every registered, not deleted entry of the portal, flat: folders are entries with `is_folder: true`, `parent_folder_file_id` gives the tree. Pending two-step uploads are not listed. No contents and no download URLs: `web_url` opens the file in the web application.",
  tag: "Files",
  scope: "file:list",
  params: FilesParamsSchema,
  query: ListFilesQuerySchema,
  responses: { 200: z.array(FileSchema) },
});

export const uploadFileOperation = defineOperation({
  method: "POST",
  path: "/api/v1/portals/{portalId}/files",
  operationId: "uploadFile",
  summary: "Upload a file: one-step from a URL, or start a two-step presigned upload",
  description:
    "With `file_url` (one-step): the file is fetched at once (https, public addresses only, every redirect checked, at most 3 redirects, 100 MB and 30 s) and registered: 201, `file.uploaded` fires. Without it (two-step): 200 with a PUT URL valid 1 hour, signed for the `Content-Type` in `headers`; PUT the bytes there, then call files/complete. `task_id` links the file to a task without completing it.",
  tag: "Files",
  scope: "file:upload",
  params: FilesParamsSchema,
  body: UploadFileBodySchema,
  responses: { 200: UploadTicketSchema, 201: UploadedFileSchema },
  errors: { 400: "invalid_request: a missing or invalid field, or a file_url that cannot be fetched (the description gives the reason)" },
});

export const completeUploadOperation = defineOperation({
  method: "POST",
  path: "/api/v1/portals/{portalId}/files/complete",
  operationId: "completeUpload",
  summary: "Register a two-step upload once its bytes are stored",
  description:
    "The object must be in storage with the announced size (`size` here or at POST files) and the signed Content-Type, else 400; an upload pending for more than 1 hour is refused. Returns the File entry and fires `file.uploaded`; completing the same `file_id` again returns the same entry and fires nothing.",
  tag: "Files",
  scope: "file:upload",
  params: FilesParamsSchema,
  body: CompleteUploadBodySchema,
  responses: { 201: FileSchema },
});

export const fileOperations = [listFilesOperation, uploadFileOperation, completeUploadOperation] as const;
