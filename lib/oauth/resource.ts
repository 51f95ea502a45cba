import { env } from "@/lib/env";

// RFC 8707 resource indicators. A token is for one resource, its audience: the REST API (the
// default, when a request names none) or the MCP server. Each resource accepts only its own tokens.

/** The REST API's audience: every access token issued without a `resource` (the contract). */
export function apiResource(): string {
  return `${env().API_URL}/api/v1`;
}

/** The MCP server's canonical URI (RFC 8707 2, the MCP authorization specification). */
export function mcpResource(): string {
  return `${env().API_URL}/mcp`;
}

/**
 * The canonical form of a requested resource, or null when this server has no such resource.
 * Scheme and host compare case-insensitively (URL does that); a trailing slash is ignored.
 */
export function knownResource(requested: string): string | null {
  let url: URL;
  try {
    url = new URL(requested);
  } catch {
    return null;
  }
  if (url.hash || url.search || url.username || url.password) return null;
  const canonical = `${url.origin}${url.pathname.replace(/\/+$/, "")}`;
  return [apiResource(), mcpResource()].find((known) => known === canonical) ?? null;
}

/** The audience of a grant's access tokens. */
export function audienceOf(resource: string | null | undefined): string {
  return resource ?? apiResource();
}
