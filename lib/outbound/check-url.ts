import { isIP } from "node:net";

import { OutboundError } from "./errors";
import { isAllowedAddress, outboundPolicyFromEnv, resolveAllowed, type OutboundPolicy } from "./policy";

/** The host as given to the socket: IPv6 literals without their URL brackets. */
export function socketHost(url: URL): string {
  return url.hostname.startsWith("[") ? url.hostname.slice(1, -1) : url.hostname;
}

export function portOf(url: URL): number {
  if (url.port !== "") return Number(url.port);
  return url.protocol === "https:" ? 443 : 80;
}

/**
 * Syntax and scheme, no DNS. The WHATWG parser has already turned the decimal, hex and octal IPv4
 * spellings (`2130706433`, `0x7f000001`, `0177.0.0.1`) into dotted quads, so the address rules
 * see them. Any port is accepted: the address, not the port, decides whether a host is internal.
 */
export function parseOutboundUrl(input: string | URL, policy: OutboundPolicy): URL {
  let url: URL;
  try {
    url = new URL(input);
  } catch {
    throw new OutboundError("invalid_url", "not a valid URL");
  }
  if (url.protocol !== "https:" && !(policy.allowHttp && url.protocol === "http:")) {
    throw new OutboundError("scheme_not_allowed", `${url.protocol.slice(0, -1)} URLs are not allowed`);
  }
  // Credentials in a URL end up stored and displayed wherever the URL is; secrets go in headers.
  if (url.username !== "" || url.password !== "") {
    throw new OutboundError("invalid_url", "URLs with credentials are not allowed");
  }
  if (url.hostname === "") throw new OutboundError("invalid_url", "URL has no host");
  return url;
}

/** An IP-literal host skips DNS (and the socket's lookup), so its address is checked here. */
export function checkLiteralHost(url: URL, policy: OutboundPolicy): boolean {
  const host = socketHost(url);
  if (isIP(host) === 0) return false;
  if (!isAllowedAddress(policy, host, portOf(url))) {
    throw new OutboundError("private_address", `${url.host} is not a public address`);
  }
  return true;
}

/**
 * For create/update time validation (webhook URLs): syntax, scheme, and that the host resolves
 * only to public addresses. Throws OutboundError. Delivery checks again at connect time, since
 * DNS may answer differently then.
 */
export async function checkOutboundUrl(input: string, policy: OutboundPolicy = outboundPolicyFromEnv()): Promise<URL> {
  const url = parseOutboundUrl(input, policy);
  if (!checkLiteralHost(url, policy)) await resolveAllowed(policy, url.hostname, portOf(url));
  return url;
}
