import type { IncomingHttpHeaders, IncomingMessage } from "node:http";

import { parseOutboundUrl } from "./check-url";
import { buildHeaders, deadline, destroyOnAbort, sendFollowingRedirects, toOutboundError } from "./connect";
import { outboundPolicyFromEnv, type OutboundPolicy } from "./policy";

export type OutboundHeaders = Record<string, string | string[] | undefined>;

export interface OutboundRequestInput {
  url: string;
  method?: "GET" | "POST" | "PUT" | "HEAD";
  headers?: Record<string, string>;
  /** A string is sent as UTF-8. */
  body?: string | Uint8Array;
  /** Total time for connecting, every redirect and reading the body. */
  timeoutMs: number;
  /** 0 (default): a 3xx is returned as the response, not followed. */
  maxRedirects?: number;
  /** Bytes of the response body kept (default 64 KiB); the rest is not read. */
  maxResponseBytes?: number;
  signal?: AbortSignal;
  /** Defaults to outboundPolicyFromEnv(). */
  policy?: OutboundPolicy;
}

export interface OutboundResponse {
  status: number;
  headers: OutboundHeaders;
  /** The URL that answered, after any redirects. */
  url: string;
  body: Buffer;
  /** The body was longer than maxResponseBytes and was cut there. */
  truncated: boolean;
  durationMs: number;
}

export const DEFAULT_MAX_RESPONSE_BYTES = 64 * 1024;

export function copyHeaders(headers: IncomingHttpHeaders): OutboundHeaders {
  return { ...headers };
}

/**
 * One request; each connection's address is checked at connect time (DNS rebinding safe).
 * Throws OutboundError, or the signal's reason when the caller aborts.
 */
export async function outboundRequest(input: OutboundRequestInput): Promise<OutboundResponse> {
  const started = performance.now();
  const policy = input.policy ?? outboundPolicyFromEnv();
  const url = parseOutboundUrl(input.url, policy);
  const body = input.body === undefined ? undefined : Buffer.from(input.body);
  const request = { method: input.method ?? "GET", headers: buildHeaders(input.headers, body), body };
  const limit = deadline(input.timeoutMs, input.signal);
  try {
    const { res, url: answered } = await sendFollowingRedirects(url, request, input.maxRedirects ?? 0, policy, limit.signal);
    const read = await readCapped(res, input.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES, limit.signal);
    return {
      status: res.statusCode ?? 0,
      headers: copyHeaders(res.headers),
      url: answered.href,
      ...read,
      durationMs: Math.round(performance.now() - started),
    };
  } finally {
    limit.clear();
  }
}

/** Keeps at most `max` bytes, then closes the connection instead of downloading the rest. */
export async function readCapped(res: IncomingMessage, max: number, signal: AbortSignal): Promise<{ body: Buffer; truncated: boolean }> {
  const chunks: Buffer[] = [];
  let size = 0;
  const unbind = destroyOnAbort(res, signal);
  try {
    for await (const chunk of res as AsyncIterable<Buffer>) {
      if (size + chunk.length > max) {
        chunks.push(chunk.subarray(0, max - size));
        res.destroy();
        return { body: Buffer.concat(chunks), truncated: true };
      }
      chunks.push(chunk);
      size += chunk.length;
    }
    return { body: Buffer.concat(chunks), truncated: false };
  } catch (error) {
    throw toOutboundError(error, signal);
  } finally {
    unbind();
  }
}
