import { DeleteObjectCommand, DeleteObjectsCommand, GetObjectCommand, HeadObjectCommand, PutObjectCommand } from "@aws-sdk/client-s3";
import { getSignedUrl } from "@aws-sdk/s3-request-presigner";
import { bucket, s3 } from "./s3";

// Single-object operations of the file storage: presigned PUT and GET, HEAD, DELETE.

export interface StoredObject {
  size: number;
  contentType: string | null;
}

/** A PUT URL for one key, signed with its Content-Type: the uploader must send exactly that header. */
export async function presignPut({ key, contentType, expiresIn }: { key: string; contentType: string; expiresIn: number }): Promise<string> {
  // Content-Type stays a signed header (not hoisted into the query), so S3 refuses a PUT with another one.
  return getSignedUrl(s3(), new PutObjectCommand({ Bucket: bucket(), Key: key, ContentType: contentType }), {
    expiresIn,
    signableHeaders: new Set(["content-type"]),
    unhoistableHeaders: new Set(["content-type"]),
  });
}

/**
 * A GET URL for one key whose response carries the given Content-Type and Content-Disposition
 * (signed into the URL, so they cannot be changed by whoever holds it).
 */
export async function presignGet({
  key,
  expiresIn,
  contentType,
  contentDisposition,
}: {
  key: string;
  expiresIn: number;
  contentType: string;
  contentDisposition: string;
}): Promise<string> {
  return getSignedUrl(
    s3(),
    new GetObjectCommand({ Bucket: bucket(), Key: key, ResponseContentType: contentType, ResponseContentDisposition: contentDisposition }),
    { expiresIn },
  );
}

/** The object's size and Content-Type, or null when there is no such object. */
export async function headObject(key: string): Promise<StoredObject | null> {
  try {
    const head = await s3().send(new HeadObjectCommand({ Bucket: bucket(), Key: key }));
    return { size: head.ContentLength ?? 0, contentType: head.ContentType ?? null };
  } catch (error) {
    if (isNotFound(error)) return null;
    throw error;
  }
}

/** Deletes an object; an absent object is not an error (S3 answers 204 either way). */
export async function deleteObject(key: string): Promise<void> {
  await s3().send(new DeleteObjectCommand({ Bucket: bucket(), Key: key }));
}

/**
 * Deletes many objects, 1000 per request (the S3 limit); absent objects are not errors. Throws
 * when any key could not be deleted, so the caller keeps the rows that name them.
 */
export async function deleteObjects(keys: readonly string[]): Promise<void> {
  for (let i = 0; i < keys.length; i += 1000) {
    const chunk = keys.slice(i, i + 1000);
    const res = await s3().send(new DeleteObjectsCommand({ Bucket: bucket(), Delete: { Objects: chunk.map((Key) => ({ Key })), Quiet: true } }));
    const failed = res.Errors ?? [];
    if (failed.length > 0)
      throw new Error(`Storage refused to delete ${failed.length} object(s): ${failed[0]?.Code ?? "error"} ${failed[0]?.Message ?? ""}`.trim());
  }
}

function isNotFound(error: unknown): boolean {
  if (typeof error !== "object" || error === null) return false;
  const e = error as { name?: string; $metadata?: { httpStatusCode?: number } };
  return e.name === "NotFound" || e.name === "NoSuchKey" || e.$metadata?.httpStatusCode === 404;
}

/** An object's bytes (documents the server itself works on, e.g. a PDF to sign); refuses more than `maxBytes`. */
export async function readObject(key: string, maxBytes: number): Promise<Uint8Array> {
  const res = await s3().send(new GetObjectCommand({ Bucket: bucket(), Key: key }));
  if ((res.ContentLength ?? 0) > maxBytes) {
    res.Body?.transformToWebStream()
      .cancel()
      .catch(() => undefined);
    throw new Error(`Object ${key} has ${res.ContentLength} bytes, more than the ${maxBytes} allowed here`);
  }
  if (!res.Body) throw new Error(`Object ${key} has no body`);
  return res.Body.transformToByteArray();
}
