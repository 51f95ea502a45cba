// The address a web request came from. The application server (server/app-server.ts) sets
// `x-client-ip` on every request it hands to Next.js, from the socket or, behind
// TRUSTED_PROXY_HOPS proxies, from the X-Forwarded-For entry the nearest trusted proxy added;
// whatever a client sent in that header is replaced (`npm run dev` runs the same server). Served
// any other way (plain `next start`), the first X-Forwarded-For entry is used.

export const CLIENT_IP_HEADER = "x-client-ip";

/** At most this long (an IPv6 address with a zone fits); anything longer is cut. */
const MAX_IP_LENGTH = 64;

export function clientIpOf(headers: Pick<Headers, "get">): string {
  const ip = headers.get(CLIENT_IP_HEADER) ?? headers.get("x-forwarded-for")?.split(",")[0] ?? "";
  return ip.trim().slice(0, MAX_IP_LENGTH);
}

/**
 * The client's address from the socket's peer and X-Forwarded-For, trusting `hops` proxies in
 * front: each appends the address it received from, so the entry `hops` from the right is the
 * one the outermost trusted proxy saw. With no proxies trusted, the socket's peer.
 */
export function resolveClientIp(peer: string | undefined, forwardedFor: string | undefined, hops: number): string {
  if (hops <= 0) return peer ?? "";
  const chain = (forwardedFor ?? "")
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  return chain[chain.length - hops] ?? chain[0] ?? peer ?? "";
}
