import http, { type ClientRequestArgs } from "node:http";
import https from "node:https";
import type { LookupFunction } from "node:net";

import { OutboundError } from "./errors";
import type { ResolvedAddress } from "./policy";

// Keep-alive connections for outbound requests (a new connection per webhook POST costs about a
// third of an attempt's CPU). What makes reuse as safe as a fresh connection:
//
// - Every request resolves its host and vets the answer against its policy first (connect.ts);
//   only then does it ask the pool for a socket. A refused address never reaches the pool.
// - The pool's key is the agent's own (host name, port, TLS options such as the servername) plus
//   the exact set of vetted addresses. A socket is reused only by a request whose host resolved,
//   this time, to the same vetted addresses: a name whose DNS answer changed is vetted again and
//   gets its own socket (no DNS rebinding through a pooled socket).
// - The socket connects through `fixedLookup`, which answers with those vetted addresses only:
//   no second resolution between the check and the connect.
// - Idle sockets close after IDLE_MS, below the 5 s keep-alive timeout common servers (Node's
//   included) use, so a receiver rarely closes one just as it is reused; when it does, the
//   request is sent once more on a fresh connection (connect.ts, `isStaleSocket`).
// - At most MAX_SOCKETS_PER_HOST sockets per key; further requests wait for one (their deadline
//   keeps running), MAX_SOCKETS in all.

/** Idle sockets are closed after this long. */
export const IDLE_MS = 4_000;
/** Sockets per (host, port, TLS options, vetted addresses); more requests queue. */
export const MAX_SOCKETS_PER_HOST = 16;
/** Sockets over every host. */
const MAX_SOCKETS = 256;

/** The request option carrying the vetted addresses into the pool's key. */
export const VETTED_KEY = "outboundVetted";
export type PooledRequestOptions = https.RequestOptions & { [VETTED_KEY]: string };

function vettedOf(options: ClientRequestArgs | undefined): string {
  return (options as Partial<PooledRequestOptions> | undefined)?.[VETTED_KEY] ?? "";
}

const agentOptions: http.AgentOptions = {
  keepAlive: true,
  // Free sockets time out after IDLE_MS and the agent destroys them; a socket in use is never cut
  // by this (the request's own deadline governs it).
  timeout: IDLE_MS,
  maxSockets: MAX_SOCKETS_PER_HOST,
  maxFreeSockets: MAX_SOCKETS_PER_HOST,
  maxTotalSockets: MAX_SOCKETS,
  scheduling: "lifo",
};

class VettedHttpAgent extends http.Agent {
  override getName(options?: ClientRequestArgs): string {
    return `${super.getName(options)}|${vettedOf(options)}`;
  }
}

class VettedHttpsAgent extends https.Agent {
  override getName(options?: ClientRequestArgs): string {
    return `${super.getName(options)}|${vettedOf(options)}`;
  }
}

const globalForPool = globalThis as unknown as { __outboundAgents?: { http: http.Agent; https: https.Agent } };

/** The process's agents (one per scheme; on globalThis so that module reloads share them). */
export function pooledAgent(isHttps: boolean): http.Agent {
  globalForPool.__outboundAgents ??= { http: new VettedHttpAgent(agentOptions), https: new VettedHttpsAgent(agentOptions) };
  return isHttps ? globalForPool.__outboundAgents.https : globalForPool.__outboundAgents.http;
}

/** The pool key part for a set of vetted addresses: order-independent. */
export function vettedKey(addresses: readonly ResolvedAddress[]): string {
  return addresses
    .map((a) => a.address)
    .sort()
    .join(",");
}

/**
 * The `lookup` handed to the socket: answers with the addresses already vetted, never resolving
 * again. Answers both forms net uses: one address, or all of them (`all: true`, happy eyeballs).
 */
export function fixedLookup(vetted: readonly ResolvedAddress[]): LookupFunction {
  return (hostname, options, callback) => {
    const family = options.family;
    const wanted = family === 4 || family === "IPv4" ? 4 : family === 6 || family === "IPv6" ? 6 : 0;
    const addresses = wanted === 0 ? [...vetted] : vetted.filter((a) => a.family === wanted);
    const first = addresses[0];
    if (!first) callback(new OutboundError("dns_failed", `${hostname} has no IPv${wanted} address`), "");
    else if (options.all) callback(null, addresses);
    else callback(null, first.address, first.family);
  };
}
