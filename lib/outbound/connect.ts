import http, { type IncomingMessage } from "node:http";
import https from "node:https";
import { Readable } from "node:stream";

import { checkLiteralHost, parseOutboundUrl, portOf, socketHost } from "./check-url";
import { OutboundError } from "./errors";
import { guardedLookup, isAllowedAddress, type OutboundPolicy } from "./policy";

// One connection per hop, its address checked before the socket opens; redirects re-checked
// hop by hop; one total deadline over everything.

export const USER_AGENT = "ClientPortals/1.0";

export interface HopRequest {
  method: string;
  /** Lower-case names. */
  headers: Record<string, string>;
  /** A stream is piped once (no redirect can resend it; callers stream with maxRedirects 0). */
  body?: Buffer | Readable;
}

/**
 * The total time limit and the caller's signal folded into one signal. Its reason is what the
 * request fails with: OutboundError("timeout") at the deadline, the caller's reason on abort.
 */
export function deadline(timeoutMs: number, caller?: AbortSignal): { signal: AbortSignal; clear: () => void } {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(new OutboundError("timeout", `no complete answer within ${timeoutMs} ms`)), timeoutMs);
  const onAbort = () => controller.abort(caller?.reason);
  if (caller?.aborted) onAbort();
  else caller?.addEventListener("abort", onAbort, { once: true });
  return {
    signal: controller.signal,
    clear: () => {
      clearTimeout(timer);
      caller?.removeEventListener("abort", onAbort);
    },
  };
}

const DNS_CODES = new Set(["ENOTFOUND", "EAI_AGAIN", "EAI_FAIL", "EAI_NODATA", "ENODATA"]);
const TLS_CODE = /^(ERR_TLS_|ERR_SSL_|CERT_|UNABLE_TO_|DEPTH_ZERO_|SELF_SIGNED_|HOSTNAME_MISMATCH)/;

/** Maps what a socket or stream failed with to the one error callers see. */
export function toOutboundError(error: unknown, signal: AbortSignal, inTlsHandshake = false): unknown {
  if (error instanceof OutboundError) return error;
  // Destroying with the signal's reason can surface as a wrapped error; the reason is the truth.
  if (signal.aborted) return signal.reason;
  const code = (error as NodeJS.ErrnoException | undefined)?.code ?? "";
  if (DNS_CODES.has(code)) return new OutboundError("dns_failed", "could not resolve host", { cause: error });
  if (inTlsHandshake || TLS_CODE.test(code)) {
    return new OutboundError("tls_failed", "TLS handshake failed", { cause: error });
  }
  return new OutboundError("connection_failed", `connection failed (${code || "closed"})`, { cause: error });
}

/** Destroys a response when the deadline passes or the caller aborts; returns the unbinding. */
export function destroyOnAbort(stream: { destroy(error?: Error): void }, signal: AbortSignal): () => void {
  const onAbort = () => stream.destroy(signal.reason as Error);
  signal.addEventListener("abort", onAbort, { once: true });
  return () => signal.removeEventListener("abort", onAbort);
}

/** One request to one URL; resolves when the response head has arrived. */
function sendOnce(url: URL, request: HopRequest, policy: OutboundPolicy, signal: AbortSignal): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const port = portOf(url);
    const literal = checkLiteralHost(url, policy);
    const isHttps = url.protocol === "https:";
    let connected = false;
    let secured = false;
    const options: https.RequestOptions = {
      hostname: socketHost(url),
      port,
      path: `${url.pathname}${url.search}`,
      method: request.method,
      headers: request.headers,
      // A fresh connection per request: no pooled socket whose address was checked for another
      // request, and nothing kept open after the answer.
      agent: false,
      ...(literal ? {} : { lookup: guardedLookup(policy, port) }),
    };
    const req = isHttps ? https.request(options) : http.request(options);
    const unbind = destroyOnAbort(req, signal);
    req.on("socket", (socket) => {
      socket.once("connect", () => {
        connected = true;
        // Backstop: the lookup and literal checks above already refused non-public addresses
        // before connecting; this catches any path that would bypass them.
        const remote = socket.remoteAddress ?? "";
        if (!isAllowedAddress(policy, remote, socket.remotePort ?? port)) {
          const refused = `${url.host} connected to a non-public address`;
          socket.destroy(new OutboundError("private_address", refused));
        }
      });
      socket.once("secureConnect", () => {
        secured = true;
      });
    });
    req.once("response", (res) => {
      unbind();
      resolve(res);
    });
    // `on`, not `once`: a socket error after the response head must not go unhandled.
    req.on("error", (error) => {
      unbind();
      reject(toOutboundError(error, signal, isHttps && connected && !secured));
    });
    if (request.body instanceof Readable) {
      const source = request.body;
      source.once("error", (error) => req.destroy(error));
      source.pipe(req);
    } else {
      req.end(request.body);
    }
  });
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);
const CREDENTIAL_HEADERS = ["authorization", "cookie", "proxy-authorization"];

/**
 * Sends the request and follows up to maxRedirects redirects, each new URL checked for scheme and
 * address like the first. With maxRedirects 0 a redirect is the answer. Past the limit:
 * too_many_redirects.
 */
export async function sendFollowingRedirects(
  start: URL,
  first: HopRequest,
  maxRedirects: number,
  policy: OutboundPolicy,
  signal: AbortSignal,
): Promise<{ res: IncomingMessage; url: URL }> {
  let url = start;
  let request = first;
  for (let followed = 0; ; followed++) {
    const res = await sendOnce(url, request, policy, signal);
    const status = res.statusCode ?? 0;
    const location = res.headers.location;
    if (maxRedirects === 0 || !REDIRECTS.has(status) || location === undefined) return { res, url };
    // The redirect's own body is never wanted; with no connection reuse, closing is cheapest.
    res.destroy();
    if (followed >= maxRedirects) {
      throw new OutboundError("too_many_redirects", `more than ${maxRedirects} redirects`);
    }
    let next: URL;
    try {
      next = new URL(location, url);
    } catch {
      throw new OutboundError("invalid_url", "redirect to an invalid URL");
    }
    next = parseOutboundUrl(next, policy);
    request = redirectedRequest(request, status, url, next);
    url = next;
  }
}

/** Follows fetch: 303 (and 301/302 after POST) become a GET without body; 307/308 keep both. */
function redirectedRequest(request: HopRequest, status: number, from: URL, to: URL): HopRequest {
  const headers = { ...request.headers };
  let { method, body } = request;
  if ((status === 303 && method !== "HEAD") || ((status === 301 || status === 302) && method === "POST")) {
    method = "GET";
    body = undefined;
    delete headers["content-length"];
    delete headers["content-type"];
  }
  // Credentials meant for one origin are not handed to another.
  if (from.origin !== to.origin) for (const name of CREDENTIAL_HEADERS) delete headers[name];
  return { method, headers, body };
}

/** Caller headers by lower-case name, with the User-Agent unless the caller set one. */
export function buildHeaders(given: Record<string, string> | undefined, body: Buffer | undefined): Record<string, string> {
  const headers: Record<string, string> = { "user-agent": USER_AGENT };
  for (const [name, value] of Object.entries(given ?? {})) headers[name.toLowerCase()] = value;
  // The length of the bytes actually sent, whatever the caller claimed.
  if (body !== undefined) headers["content-length"] = String(body.length);
  else delete headers["content-length"];
  return headers;
}
