import { Transform, type Readable } from "node:stream";

import { parseOutboundUrl } from "./check-url";
import { buildHeaders, deadline, destroyOnAbort, sendFollowingRedirects, toOutboundError } from "./connect";
import { OutboundError } from "./errors";
import { outboundPolicyFromEnv, type OutboundPolicy } from "./policy";
import { copyHeaders, type OutboundHeaders } from "./request";

export interface OutboundStreamInput {
  url: string;
  /** Total time, connecting and redirects through the last byte of the body. */
  timeoutMs: number;
  maxRedirects: number;
  maxBytes: number;
  headers?: Record<string, string>;
  signal?: AbortSignal;
  /** Defaults to outboundPolicyFromEnv(). */
  policy?: OutboundPolicy;
}

export interface OutboundStreamResponse {
  status: number;
  headers: OutboundHeaders;
  url: string;
  /** Content-Length as announced, null when absent or not a number. */
  contentLength: number | null;
  /** Errors with OutboundError too_large past maxBytes, timeout past the deadline. */
  body: Readable;
}

function declaredLength(value: string | undefined): number | null {
  return value !== undefined && /^\d+$/.test(value) ? Number(value) : null;
}

/**
 * Streaming GET for ingestion. Resolves with the final response whatever its status (the caller
 * decides about non-2xx). The body is passed through as it arrives, under backpressure, and never
 * collected here. A 2xx that announces more than maxBytes is refused with too_large before any of
 * its body is read.
 */
export async function outboundStream(input: OutboundStreamInput): Promise<OutboundStreamResponse> {
  const policy = input.policy ?? outboundPolicyFromEnv();
  const url = parseOutboundUrl(input.url, policy);
  const request = { method: "GET", headers: buildHeaders(input.headers, undefined) };
  const limit = deadline(input.timeoutMs, input.signal);
  const { res, url: answered } = await sendFollowingRedirects(url, request, input.maxRedirects, policy, limit.signal).catch((error: unknown) => {
    limit.clear();
    throw error;
  });
  const status = res.statusCode ?? 0;
  const contentLength = declaredLength(res.headers["content-length"]);
  if (status >= 200 && status < 300 && contentLength !== null && contentLength > input.maxBytes) {
    res.destroy();
    limit.clear();
    throw new OutboundError("too_large", `announced ${contentLength} bytes, more than ${input.maxBytes}`);
  }

  let received = 0;
  const counter = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      received += chunk.length;
      if (received > input.maxBytes) {
        done(new OutboundError("too_large", `more than ${input.maxBytes} bytes`));
      } else {
        done(null, chunk);
      }
    },
  });
  // The deadline keeps running while the caller reads: it ends the body, not only the headers.
  const unbind = destroyOnAbort(counter, limit.signal);
  res.on("error", (error) => counter.destroy(toOutboundError(error, limit.signal) as Error));
  // Whatever ends the body (last byte read, cap, deadline, the caller destroying it) releases the
  // connection and the timer.
  counter.once("close", () => {
    unbind();
    limit.clear();
    res.destroy();
  });
  res.pipe(counter);
  return { status, headers: copyHeaders(res.headers), url: answered.href, contentLength, body: counter };
}
