import { randomUUID } from "node:crypto";
import { requirePortal } from "@/lib/access/policy";
import { actorOf, type Viewer } from "@/lib/access/viewer";
import { db } from "@/lib/db";
import { presignPut } from "@/lib/storage/objects";
import { fileStorageKey } from "@/lib/storage/s3";
import { DEFAULT_CONTENT_TYPE } from "./schemas";
import { prepareUploadRow } from "./upload-target";

/**
 * The size of a pending record whose upload announced none (only pending records carry it;
 * completion writes the stored object's size).
 */
export const UNANNOUNCED_SIZE = -1;

/** The presigned URL and the pending upload live 1 hour (spec section 8, D14). */
const UPLOAD_URL_TTL_SECONDS = 3600;

export interface StartUploadInput {
  viewer: Viewer;
  portalId: string;
  filename: string;
  contentType?: string;
  /** Announced size; files/complete checks the stored object against it. */
  size?: number;
  parentId?: string | null;
  taskId?: string | null;
}

export interface UploadTicket {
  fileId: string;
  uploadUrl: string;
  expiresIn: typeof UPLOAD_URL_TTL_SECONDS;
  contentType: string;
}

/**
 * Two-step upload, first step: a pending file record (not listed, no event, no audit row: nothing
 * is in the portal yet) and a PUT URL signed for its storage key and Content-Type, valid 1 hour.
 */
export async function startUpload(input: StartUploadInput): Promise<UploadTicket> {
  const { viewer, portalId } = input;
  requirePortal(viewer, portalId, "upload");
  const { orgId } = viewer;
  const actor = actorOf(viewer);
  const id = randomUUID();
  const contentType = input.contentType ?? DEFAULT_CONTENT_TYPE;
  const storageKey = fileStorageKey(orgId, id);
  await db.$transaction(async (tx) => {
    const row = await prepareUploadRow(tx, {
      id,
      orgId,
      portalId,
      actor,
      filename: input.filename,
      parentId: input.parentId ?? null,
      taskId: input.taskId ?? null,
      contentType,
      storageKey,
    });
    await tx.fileEntry.create({
      data: {
        ...row,
        size: input.size ?? UNANNOUNCED_SIZE,
        status: "pending",
        pendingExpiresAt: new Date(Date.now() + UPLOAD_URL_TTL_SECONDS * 1000),
      },
    });
  });
  const uploadUrl = await presignPut({ key: storageKey, contentType, expiresIn: UPLOAD_URL_TTL_SECONDS });
  return { fileId: id, uploadUrl, expiresIn: UPLOAD_URL_TTL_SECONDS, contentType };
}
