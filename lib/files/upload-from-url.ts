import { randomUUID } from "node:crypto";
import { actorOf, type Viewer } from "@/lib/access/viewer";
import { invalidRequest } from "@/lib/errors";
import { afterRollback, db } from "@/lib/db";
import { withChange } from "@/lib/events/with-change";
import type { FileEntry } from "@/lib/generated/prisma/client";
import { isOutboundError, outboundStream, type OutboundPolicy } from "@/lib/outbound";
import { accessPortal } from "@/lib/access/access-portal";
import { deleteObject } from "@/lib/storage/objects";
import { fileStorageKey } from "@/lib/storage/s3";
import { uploadStream } from "@/lib/storage/upload-stream";
import { contentTypeProblem } from "./filename";
import { recordUpload } from "./record-upload";
import { DEFAULT_CONTENT_TYPE } from "./schemas";
import { checkUploadTarget, prepareUploadRow } from "./upload-target";

/** D15: at most 100 MB, 30 s in all, 3 redirects. */
const FILE_URL_LIMITS = { maxBytes: 100 * 1024 * 1024, timeoutMs: 30_000, maxRedirects: 3 } as const;

const REASONS: Record<string, string> = {
  invalid_url: "Not a valid URL",
  scheme_not_allowed: "Only https URLs are accepted",
  private_address: "The host is not a public address",
  dns_failed: "The host name could not be resolved",
  timeout: "The file could not be fetched within 30 seconds",
  too_large: "The file is larger than 100 MB",
  too_many_redirects: "More than 3 redirects",
  connection_failed: "The server could not be reached",
  tls_failed: "The TLS connection failed",
};

export interface UploadFromUrlInput {
  viewer: Viewer;
  portalId: string;
  filename: string;
  fileUrl: string;
  /** Overrides the Content-Type the server answers with. */
  contentType?: string;
  parentId?: string | null;
  taskId?: string | null;
  /** Defaults to the environment's policy; tests inject their own. */
  policy?: OutboundPolicy;
}

/**
 * One-step upload: fetches `fileUrl` through lib/outbound (https, public addresses checked at
 * connect time and on every redirect hop) and streams the body straight into storage, never
 * holding more than one 8 MB part. Then registers the file, with its audit row and event, in one
 * transaction. Any failure, the fetch's or the registration's, leaves no row and no object.
 */
export async function uploadFromUrl(input: UploadFromUrlInput): Promise<FileEntry> {
  const { viewer, portalId } = input;
  await accessPortal(viewer, portalId, "upload");
  const { orgId } = viewer;
  const actor = actorOf(viewer);
  // Checked before fetching, so a bad target costs no download; checked again when registering.
  await checkUploadTarget(db, { orgId, portalId, parentId: input.parentId ?? null, taskId: input.taskId ?? null });

  const id = randomUUID();
  const storageKey = fileStorageKey(orgId, id);
  const { size, contentType } = await fetchIntoStorage(input, storageKey);
  // Inside an API request's idempotency transaction the row may still roll back after this
  // function returned; the object goes with it.
  afterRollback(() => deleteObject(storageKey));

  try {
    const file = await withChange(async (tx) => {
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
      const now = new Date();
      const created = await tx.fileEntry.create({
        data: {
          ...row,
          size,
          status: "registered",
          registeredAt: now,
          createdAt: now,
        },
      });
      await recordUpload(tx, { actor, file: created, mode: "file_url" });
      return created;
    });
    return file;
  } catch (error) {
    await deleteObject(storageKey).catch(() => undefined);
    throw error;
  }
}

async function fetchIntoStorage(input: UploadFromUrlInput, key: string): Promise<{ size: number; contentType: string }> {
  try {
    const res = await outboundStream({ url: input.fileUrl, ...FILE_URL_LIMITS, policy: input.policy });
    if (res.status < 200 || res.status >= 300) {
      res.body.destroy();
      throw invalidRequest(`file_url: The server answered with status ${res.status}`);
    }
    const contentType = input.contentType ?? answeredContentType(res.headers["content-type"]);
    const size = await uploadStream({ key, body: res.body, contentType });
    return { size, contentType };
  } catch (error) {
    // A multipart upload is aborted by uploadStream; a single PUT that got through is removed here.
    await deleteObject(key).catch(() => undefined);
    if (isOutboundError(error)) throw invalidRequest(`file_url: ${REASONS[error.reason] ?? "The file could not be fetched"}`);
    throw error;
  }
}

/** The server's Content-Type when it is a valid media type, else application/octet-stream. */
function answeredContentType(value: string | string[] | undefined): string {
  const first = Array.isArray(value) ? value[0] : value;
  const trimmed = first?.trim();
  return trimmed && contentTypeProblem(trimmed) === null ? trimmed : DEFAULT_CONTENT_TYPE;
}
