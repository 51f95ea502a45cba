"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { completeUpload } from "@/lib/files/complete-upload";
import { createFolder } from "@/lib/files/create-folder";
import { deleteEntry } from "@/lib/files/delete-entry";
import { moveEntry } from "@/lib/files/move-entry";
import { renameEntry } from "@/lib/files/rename-entry";
import { restoreEntry } from "@/lib/files/restore-entry";
import { MAX_FILE_SIZE } from "@/lib/files/limits";
import { contentTypeSchema, filenameSchema } from "@/lib/files/schemas";
import { startUpload } from "@/lib/files/start-upload";
import { isUuid } from "@/lib/ids";
import type { EntryState, UploadCompleteState, UploadStartState } from "@/components/files/actions";
import { orgAction } from "@/lib/web/org-action";

// The portal's file actions for the web (the Files tab, the uploader, Recently deleted): each one
// calls the same lib/files function as the API, so it writes the same audit row and event.

const uuid = (what: string) => z.string().refine(isUuid, `${what}: not a valid id (reload the page)`);
/** "" or "main" (the portal root) → null. */
const folderField = z
  .string()
  .optional()
  .transform((v) => (v === undefined || v === "" || v === "main" ? null : v))
  .refine((v) => v === null || isUuid(v), "Not a folder of this portal (reload the page)");
const optionalUuid = z
  .string()
  .optional()
  .transform((v) => (v ? v : null))
  .refine((v) => v === null || isUuid(v), "Not a valid id (reload the page)");

const returnTo = (orgId: string) => `/org/${orgId}`;

/** Refreshes every view of the portal (its folders, Recently deleted, the tabs beside them). */
function refresh(orgId: string, portalId: string) {
  revalidatePath(`/org/${orgId}/vault/${portalId}`, "layout");
}

/** Upload, first step: a pending record and a presigned PUT URL (lib/files/start-upload). Guests with `upload` too. */
export const startUploadAction = orgAction(
  {
    minRole: "guest",
    returnTo,
    input: z.object({
      portalId: uuid("portal"),
      filename: filenameSchema,
      contentType: contentTypeSchema,
      size: z.coerce.number().int().min(0).max(MAX_FILE_SIZE, `Files are limited to 2 GB; split it or compress it first`),
      folderId: folderField,
      taskId: optionalUuid,
    }),
  },
  async ({ viewer }, input): Promise<UploadStartState> => {
    const ticket = await startUpload({
      viewer,
      portalId: input.portalId,
      filename: input.filename,
      contentType: input.contentType,
      size: input.size,
      parentId: input.folderId,
      taskId: input.taskId,
    });
    return { ticket: { fileId: ticket.fileId, uploadUrl: ticket.uploadUrl, contentType: ticket.contentType } };
  },
);

/** Upload, second step: the stored object is checked and the file registered, with `file.uploaded` (lib/files/complete-upload). */
export const completeUploadAction = orgAction(
  {
    minRole: "guest",
    returnTo,
    input: z.object({ portalId: uuid("portal"), fileId: uuid("upload"), filename: filenameSchema, size: z.coerce.number().int().min(0) }),
  },
  async ({ orgId, viewer }, input): Promise<UploadCompleteState> => {
    const file = await completeUpload({ viewer, portalId: input.portalId, fileId: input.fileId, filename: input.filename, size: input.size });
    refresh(orgId, input.portalId);
    return { file: { id: file.id, name: file.name } };
  },
);

export const createFolderAction = orgAction(
  { minRole: "member", returnTo, fields: ["name"], input: z.object({ portalId: uuid("portal"), parentId: folderField, name: z.string() }) },
  async ({ orgId, viewer }, input): Promise<EntryState> => {
    const folder = await createFolder({ viewer, portalId: input.portalId, name: input.name, parentId: input.parentId });
    refresh(orgId, input.portalId);
    return { done: { id: folder.id, name: folder.name } };
  },
);

export const renameEntryAction = orgAction(
  { minRole: "member", returnTo, fields: ["name"], input: z.object({ portalId: uuid("portal"), fileId: uuid("entry"), name: z.string() }) },
  async ({ orgId, viewer }, input): Promise<EntryState> => {
    const entry = await renameEntry({ viewer, portalId: input.portalId, fileId: input.fileId, name: input.name });
    refresh(orgId, input.portalId);
    return { done: { id: entry.id, name: entry.name } };
  },
);

export const moveEntryAction = orgAction(
  { minRole: "member", returnTo, fields: ["parentId"], input: z.object({ portalId: uuid("portal"), fileId: uuid("entry"), parentId: folderField }) },
  async ({ orgId, viewer }, input): Promise<EntryState> => {
    const entry = await moveEntry({ viewer, portalId: input.portalId, fileId: input.fileId, parentId: input.parentId });
    refresh(orgId, input.portalId);
    return { done: { id: entry.id, name: entry.name } };
  },
);

export const deleteEntryAction = orgAction(
  { minRole: "member", returnTo, input: z.object({ portalId: uuid("portal"), fileId: uuid("entry"), name: z.string().optional() }) },
  async ({ orgId, viewer }, input): Promise<EntryState> => {
    await deleteEntry({ viewer, portalId: input.portalId, fileId: input.fileId });
    refresh(orgId, input.portalId);
    return { done: { id: input.fileId, name: input.name ?? "" } };
  },
);

export const restoreEntryAction = orgAction(
  { minRole: "member", returnTo, input: z.object({ portalId: uuid("portal"), fileId: uuid("entry") }) },
  async ({ orgId, viewer }, input): Promise<EntryState> => {
    const entry = await restoreEntry({ viewer, portalId: input.portalId, fileId: input.fileId });
    refresh(orgId, input.portalId);
    return { done: { id: entry.id, name: entry.name } };
  },
);
