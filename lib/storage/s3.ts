import "server-only";
import { S3Client } from "@aws-sdk/client-s3";
import { env } from "@/lib/env";
import { AppError } from "@/lib/errors";

let client: S3Client | undefined;

/** Seconds a client is told to wait after the storage did not answer. */
const STORAGE_RETRY_AFTER_SECONDS = 30;

/**
 * The one S3 client. Path-style and "when required" checksums keep S3-compatible servers working.
 * Every call it sends is bounded by S3_TIMEOUT_MS (retries included) and a storage that does not
 * answer or cannot be reached becomes 503 service_unavailable with Retry-After (storageUnavailable).
 */
export function s3(): S3Client {
  if (client) return client;
  const e = env();
  const created = new S3Client({
    region: e.S3_REGION,
    endpoint: e.S3_ENDPOINT,
    forcePathStyle: e.S3_FORCE_PATH_STYLE,
    credentials: e.S3_ACCESS_KEY_ID && e.S3_SECRET_ACCESS_KEY ? { accessKeyId: e.S3_ACCESS_KEY_ID, secretAccessKey: e.S3_SECRET_ACCESS_KEY } : undefined,
    requestChecksumCalculation: "WHEN_REQUIRED",
    responseChecksumValidation: "WHEN_REQUIRED",
    // Sockets of a frozen store are torn down too, not only the promise given up.
    requestHandler: { connectionTimeout: e.S3_TIMEOUT_MS, requestTimeout: e.S3_TIMEOUT_MS },
  });
  const send = created.send.bind(created) as (command: unknown, options?: { abortSignal?: AbortSignal }) => Promise<unknown>;
  const timeoutMs = e.S3_TIMEOUT_MS;
  created.send = (async (command: unknown, options?: { abortSignal?: AbortSignal }) => {
    const deadline = AbortSignal.timeout(timeoutMs);
    const abortSignal = options?.abortSignal ? AbortSignal.any([options.abortSignal, deadline]) : deadline;
    try {
      return await send(command, { ...options, abortSignal });
    } catch (error) {
      throw storageUnavailable(error, deadline.aborted) ?? error;
    }
  }) as S3Client["send"];
  client = created;
  return client;
}

const UNREACHABLE = new Set(["ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "EHOSTUNREACH", "ENETUNREACH", "EPIPE", "EAI_AGAIN", "ENOTFOUND"]);

/** The 503 for a storage call that timed out, could not connect, or was answered 503; else null. */
export function storageUnavailable(error: unknown, timedOut: boolean): AppError | null {
  const e = (typeof error === "object" && error !== null ? error : {}) as { name?: string; code?: string; $metadata?: { httpStatusCode?: number } };
  const unavailable = timedOut || e.name === "TimeoutError" || UNREACHABLE.has(e.code ?? "") || e.$metadata?.httpStatusCode === 503;
  if (!unavailable) return null;
  return new AppError("service_unavailable", "The file storage did not answer in time; retry later", {
    "Retry-After": String(STORAGE_RETRY_AFTER_SECONDS),
  });
}

/** Tests only: the next s3() call builds a new client from the (changed) environment. */
export function resetS3ClientForTests(): void {
  client?.destroy();
  client = undefined;
}

export function bucket(): string {
  return env().S3_BUCKET;
}

/** Object keys are made of ids only, never of user-supplied names. */
export function fileStorageKey(orgId: string, fileId: string): string {
  return `orgs/${orgId}/files/${fileId}`;
}
