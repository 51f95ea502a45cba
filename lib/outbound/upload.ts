import type { Readable } from "node:stream";

import { parseOutboundUrl } from "./check-url";
import { buildHeaders, deadline, sendFollowingRedirects } from "./connect";
import { outboundPolicyFromEnv, type OutboundPolicy } from "./policy";
import { copyHeaders, DEFAULT_MAX_RESPONSE_BYTES, readCapped, type OutboundResponse } from "./request";

export interface OutboundUploadInput {
  url: string;
  method?: "PUT" | "POST";
  headers?: Record<string, string>;
  /** Piped as it is read, under backpressure: never collected in memory. */
  body: Readable;
  /** Sent as Content-Length; the receiver decides what a body of another length means. */
  contentLength: number;
  /** Total time for connecting, sending the body and reading the answer. */
  timeoutMs: number;
  maxResponseBytes?: number;
  signal?: AbortSignal;
  /** Defaults to outboundPolicyFromEnv(). */
  policy?: OutboundPolicy;
}

/**
 * One streaming upload (the partner's short-lived upload URLs): same address checks as
 * outboundRequest, redirects never followed (a stream cannot be sent twice). Throws OutboundError,
 * or the signal's reason when the caller aborts; the body stream is destroyed on failure.
 */
export async function outboundUpload(input: OutboundUploadInput): Promise<OutboundResponse> {
  const started = performance.now();
  const policy = input.policy ?? outboundPolicyFromEnv();
  const limit = deadline(input.timeoutMs, input.signal);
  try {
    const url = parseOutboundUrl(input.url, policy);
    const headers = { ...buildHeaders(input.headers, undefined), "content-length": String(input.contentLength) };
    const { res, url: answered } = await sendFollowingRedirects(url, { method: input.method ?? "PUT", headers, body: input.body }, 0, policy, limit.signal);
    const read = await readCapped(res, input.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES, limit.signal);
    return { status: res.statusCode ?? 0, headers: copyHeaders(res.headers), url: answered.href, ...read, durationMs: Math.round(performance.now() - started) };
  } catch (error) {
    input.body.destroy();
    throw error;
  } finally {
    limit.clear();
  }
}
