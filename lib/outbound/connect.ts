import http, { type IncomingMessage } from "node:http";
import https from "node:https";
import { Readable } from "node:stream";

import { isIP } from "node:net";

import { checkLiteralHost, parseOutboundUrl, portOf, socketHost } from "./check-url";
import { OutboundError } from "./errors";
import { isAllowedAddress, resolveAllowed, type OutboundPolicy, type ResolvedAddress } from "./policy";
import { fixedLookup, pooledAgent, VETTED_KEY, vettedKey, type PooledRequestOptions } from "./pool";

// Each hop's host resolved and its addresses checked before a socket is chosen (a keep-alive one
// keyed by those addresses, see pool.ts); redirects re-checked hop by hop; one total deadline over
// everything.

const USER_AGENT = "ClientPortals/1.0";

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

/** The host's vetted addresses: an IP literal as it is (checked), a name resolved and checked. */
async function vetHost(url: URL, policy: OutboundPolicy, port: number, signal: AbortSignal): Promise<ResolvedAddress[]> {
  const host = socketHost(url);
  if (checkLiteralHost(url, policy)) return [{ address: host, family: isIP(host) }];
  // The deadline covers the lookup too: a resolver that hangs fails the request at its limit.
  let unbind = () => {};
  const aborted = new Promise<never>((_resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
    unbind = () => signal.removeEventListener("abort", onAbort);
  });
  try {
    return await Promise.race([resolveAllowed(policy, url.hostname, port), aborted]);
  } finally {
    unbind();
  }
}

/**
 * A pooled socket the receiver had already closed (its idle timeout ran out as the request went
 * out): nothing was answered on it, so the request goes once more on a fresh connection. Node's
 * documented pattern for keep-alive clients.
 */
function isStaleSocket(error: unknown, reused: boolean, answered: boolean): boolean {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return reused && !answered && (code === "ECONNRESET" || code === "EPIPE");
}

/**
 * One request to one URL; resolves when the response head has arrived. The host is resolved and
 * its addresses vetted against the policy before any socket is chosen; the socket then comes from
 * the keep-alive pool under a key that includes those vetted addresses (pool.ts), or, when a pooled
 * socket turns out stale, is a fresh one.
 */
async function sendOnce(url: URL, request: HopRequest, policy: OutboundPolicy, signal: AbortSignal): Promise<IncomingMessage> {
  if (signal.aborted) throw signal.reason;
  const port = portOf(url);
  const vetted = await vetHost(url, policy, port, signal);
  // A streamed body (uploads) cannot be sent again should a pooled socket prove stale: it gets a
  // connection of its own, as before.
  if (request.body instanceof Readable) return sendVetted(url, request, policy, signal, port, vetted, false);
  try {
    return await sendVetted(url, request, policy, signal, port, vetted, true);
  } catch (error) {
    if (!(error instanceof StaleSocket)) throw error;
    return sendVetted(url, request, policy, signal, port, vetted, false);
  }
}

/** Internal: the pooled socket was stale and the request may go again on a fresh connection. */
class StaleSocket extends Error {}

function sendVetted(
  url: URL,
  request: HopRequest,
  policy: OutboundPolicy,
  signal: AbortSignal,
  port: number,
  vetted: ResolvedAddress[],
  pooled: boolean,
): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const isHttps = url.protocol === "https:";
    let connected = false;
    let secured = false;
    let reused = false;
    let answered = false;
    const options: PooledRequestOptions = {
      hostname: socketHost(url),
      port,
      path: `${url.pathname}${url.search}`,
      method: request.method,
      headers: request.headers,
      // The vetted addresses only: the socket connects to what was checked, no second resolution.
      lookup: fixedLookup(vetted),
      // `false`: a fresh connection of this request's own, closed after the answer.
      agent: pooled ? pooledAgent(isHttps) : false,
      [VETTED_KEY]: vettedKey(vetted),
    };
    const req = isHttps ? https.request(options) : http.request(options);
    const unbind = destroyOnAbort(req, signal);
    req.on("socket", (socket) => {
      reused = req.reusedSocket;
      const check = () => {
        connected = true;
        // Backstop: the vetting above already refused non-public addresses before connecting;
        // this catches any path that would bypass it, on new and reused sockets alike.
        const remote = socket.remoteAddress ?? "";
        if (!isAllowedAddress(policy, remote, socket.remotePort ?? port)) {
          const refused = `${url.host} connected to a non-public address`;
          socket.destroy(new OutboundError("private_address", refused));
        }
      };
      if (reused) check();
      else socket.once("connect", check);
      if (reused) secured = true;
      else
        socket.once("secureConnect", () => {
          secured = true;
        });
    });
    req.once("response", (res) => {
      answered = true;
      unbind();
      resolve(res);
    });
    // `on`, not `once`: a socket error after the response head must not go unhandled.
    req.on("error", (error) => {
      unbind();
      if (pooled && !signal.aborted && isStaleSocket(error, reused, answered)) {
        reject(new StaleSocket("stale pooled socket", { cause: error }));
        return;
      }
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
    // The redirect's own body is never wanted: closing its connection is cheaper than reading it.
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
