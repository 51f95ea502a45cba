import { z } from "zod";
import { pageQuery } from "@/lib/pagination";
import { dateTime, pathId } from "@/lib/shared-schemas";
import { isUuid } from "@/lib/ids";
import { contentTypeProblem, extensionProblem, filenameProblem, normalizeExtension } from "./filename";
import { MAX_FILE_SIZE } from "./limits";

// File requests and the File entry (spec sections 2 and 4, D10, D14, D15).

export const DEFAULT_CONTENT_TYPE = "application/octet-stream";

const uuidField = (description: string) => z.string().refine(isUuid, "Must be a uuid").meta({ format: "uuid", description });

const check = (problem: (value: string) => string | null) => (value: string, ctx: z.RefinementCtx) => {
  const message = problem(value);
  if (message) ctx.addIssue({ code: "custom", message });
};

export const filenameSchema = z
  .string()
  .trim()
  .superRefine(check(filenameProblem))
  .meta({ description: "Trimmed, 1-255 characters, including the extension; no path separators, control, invisible or bidirectional formatting characters" });

export const contentTypeSchema = z.string().trim().superRefine(check(contentTypeProblem)).meta({ description: "Media type, e.g. application/pdf" });

const sizeSchema = z.int().min(0).max(MAX_FILE_SIZE).meta({ description: "Bytes" });

export const FilesParamsSchema = z.object({ portalId: pathId("Portal") });

export const ListFilesQuerySchema = pageQuery;

export const UploadFileBodySchema = z.object({
  filename: filenameSchema,
  contentType: contentTypeSchema.optional().meta({
    description:
      "Two-step: the Content-Type the upload URL is signed for (default application/octet-stream). One-step: overrides the Content-Type the server of file_url answers with",
  }),
  size: sizeSchema.optional().meta({ description: "Two-step: the announced size in bytes; files/complete checks the stored object against it" }),
  file_url: z
    .string()
    .min(1)
    .max(2048)
    .optional()
    .meta({ format: "uri", description: "One-step: a public https URL, fetched at once (at most 100 MB, 30 s, 3 redirects)" }),
  parent_folder_file_id: uuidField("A folder of this portal; omitted: the portal root").optional(),
  task_id: uuidField("A task of this portal: the file is linked to it (the task is not completed)").optional(),
});

export const CompleteUploadBodySchema = z.object({
  file_id: uuidField("The file_id returned by POST files"),
  filename: filenameSchema,
  extension: z
    .string()
    .transform(normalizeExtension)
    .superRefine(check(extensionProblem))
    .optional()
    .meta({ description: "Defaults to the filename's extension (lower-cased, without the dot)" }),
  size: sizeSchema.optional().meta({ description: "When given, the stored object must have exactly this size" }),
  parent_folder_file_id: uuidField("Replaces the folder given at upload; a folder of this portal").optional(),
  task_id: uuidField("Replaces the task given at upload; a task of this portal").optional(),
});

export const FileSchema = z
  .object({
    id: z.string().meta({ format: "uuid" }),
    name: z.string(),
    vault_id: z.string().meta({ format: "uuid", description: "The portal id" }),
    org_id: z.string().meta({ format: "uuid" }),
    size: z.int().meta({ description: "Bytes; 0 for folders" }),
    extension: z.string().meta({ description: 'Lower-cased, without the dot; "" for folders and names without one' }),
    parent_folder_file_id: z.string().nullable().meta({ format: "uuid", description: "Containing folder; null in the portal root" }),
    uploaded_at: dateTime,
    uploaded_by: z.string().nullable().meta({ description: "User id of the uploader; null when unknown (folders made by the service)" }),
    is_folder: z.boolean(),
    content_type: z.string().nullable(),
    task_id: z.string().nullable().meta({ format: "uuid", description: "The task the file is linked to" }),
    web_url: z.string().meta({ format: "uri", description: "The preview link in the web application" }),
  })
  .meta({ id: "File" });
export type FileJson = z.input<typeof FileSchema>;

export const UploadedFileSchema = z
  .object({
    id: z.string().meta({ format: "uuid" }),
    name: z.string(),
    extension: z.string(),
    size: z.int(),
    created_date: dateTime,
  })
  .meta({ id: "UploadedFile", description: "One-step upload: the registered file" });

export const UploadTicketSchema = z
  .object({
    file_id: z.string().meta({ format: "uuid" }),
    upload_url: z.string().meta({ format: "uri" }),
    expires_in: z.literal(3600),
    method: z.literal("PUT"),
    headers: z.object({ "Content-Type": z.string() }).meta({ description: "Send exactly these headers with the PUT" }),
  })
  .meta({ id: "UploadTicket", description: "Two-step upload: PUT the bytes to upload_url, then POST files/complete" });
