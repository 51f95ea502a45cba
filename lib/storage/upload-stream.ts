import type { Readable } from "node:stream";
import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  PutObjectCommand,
  UploadPartCommand,
} from "@aws-sdk/client-s3";
import { bucket, s3 } from "./s3";

/** Parts of 8 MB: above S3's 5 MB minimum, and at most one part is held in memory at a time. */
const PART_SIZE = 8 * 1024 * 1024;

/**
 * Stores a stream of unknown length under `key` without holding more than one part in memory:
 * a body shorter than one part is one PutObject; a longer one a multipart upload, each part sent
 * before the next is read (the source waits under backpressure meanwhile). When the source errors
 * (too large, timeout), the multipart upload is aborted and the error rethrown: nothing is stored.
 * Returns the number of bytes stored.
 */
export async function uploadStream({ key, body, contentType }: { key: string; body: Readable; contentType: string }): Promise<number> {
  const parts = readParts(body);
  const first = await parts.next();
  if (first.done) return putWhole(key, Buffer.alloc(0), contentType);
  const second = await parts.next();
  if (second.done) return putWhole(key, first.value, contentType);

  const client = s3();
  const { UploadId } = await client.send(new CreateMultipartUploadCommand({ Bucket: bucket(), Key: key, ContentType: contentType }));
  if (!UploadId) throw new Error("CreateMultipartUpload returned no UploadId");
  const done: { ETag: string; PartNumber: number }[] = [];
  let size = 0;
  try {
    const send = async (chunk: Buffer) => {
      const PartNumber = done.length + 1;
      const { ETag } = await client.send(new UploadPartCommand({ Bucket: bucket(), Key: key, UploadId, PartNumber, Body: chunk, ContentLength: chunk.length }));
      done.push({ ETag: ETag ?? "", PartNumber });
      size += chunk.length;
    };
    await send(first.value);
    await send(second.value);
    for (let next = await parts.next(); !next.done; next = await parts.next()) await send(next.value);
    await client.send(new CompleteMultipartUploadCommand({ Bucket: bucket(), Key: key, UploadId, MultipartUpload: { Parts: done } }));
    return size;
  } catch (error) {
    body.destroy();
    await client.send(new AbortMultipartUploadCommand({ Bucket: bucket(), Key: key, UploadId })).catch(() => undefined);
    throw error;
  }
}

async function putWhole(key: string, chunk: Buffer, contentType: string): Promise<number> {
  await s3().send(new PutObjectCommand({ Bucket: bucket(), Key: key, Body: chunk, ContentLength: chunk.length, ContentType: contentType }));
  return chunk.length;
}

/** The stream cut into PART_SIZE buffers (the last one shorter). Source errors surface from next(). */
async function* readParts(body: Readable): AsyncGenerator<Buffer, void> {
  let pending: Buffer[] = [];
  let length = 0;
  for await (const chunk of body as AsyncIterable<Buffer>) {
    pending.push(chunk);
    length += chunk.length;
    while (length >= PART_SIZE) {
      const all = Buffer.concat(pending, length);
      yield all.subarray(0, PART_SIZE);
      const rest = all.subarray(PART_SIZE);
      pending = rest.length > 0 ? [Buffer.from(rest)] : [];
      length = rest.length;
    }
  }
  if (length > 0) yield Buffer.concat(pending, length);
}
