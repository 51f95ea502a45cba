import { Readable } from "node:stream";
import type { ReadableStream as WebReadableStream } from "node:stream/web";
import { presignGet } from "./objects";

/**
 * The object's bytes as a stream, read as they are consumed (backpressure), never collected. Read
 * through a short-lived presigned GET rather than the client's GetObject, whose per-call deadline
 * (S3_TIMEOUT_MS) would cut a long body off mid-way.
 */
export async function openObjectStream(key: string): Promise<Readable> {
  const url = await presignGet({ key, expiresIn: 300, contentType: "application/octet-stream", contentDisposition: "attachment" });
  const res = await fetch(url, { cache: "no-store" });
  if (!res.ok || !res.body) {
    await res.body?.cancel();
    throw new Error(`Storage answered ${res.status} reading ${key}`);
  }
  return Readable.fromWeb(res.body as WebReadableStream<Uint8Array>);
}
