import { admit, requireOrgApiAccess, type Admitted } from "@/lib/api/auth";
import { mapError } from "@/lib/api/error-response";
import { rateLimitError, rateLimitHeaders } from "@/lib/api/rate-limit";
import { mcpResource } from "@/lib/oauth/resource";
import { protectedResourceMetadataUrl } from "./metadata";

// Admission to /mcp: the REST API's (lib/api/auth.ts admit: signature, expiry, live grant, the
// organization gate and the daily rate limit, counted per HTTP request), but only for tokens whose
// audience is the MCP server (RFC 8707; MCP authorization: servers accept only tokens issued for
// them). Errors keep the API's shape; every challenge carries resource_metadata (RFC 9728 5.1).

export type McpAdmission = { ok: true; admitted: Admitted; headers: Record<string, string> } | { ok: false; response: Response };

/** Adds resource_metadata to a Bearer challenge (or makes one). */
function withResourceMetadata(challenge: string | undefined): string {
  const pointer = `resource_metadata="${protectedResourceMetadataUrl()}"`;
  if (!challenge) return `Bearer ${pointer}`;
  return `${challenge}, ${pointer}`;
}

export async function admitMcp(req: Request): Promise<McpAdmission> {
  let headers: Record<string, string> = {};
  try {
    const admitted = await admit(req, mcpResource());
    headers = rateLimitHeaders(admitted.rate);
    const limited = rateLimitError(admitted.rate);
    if (limited) throw limited;
    requireOrgApiAccess(admitted);
    return { ok: true, admitted, headers };
  } catch (error) {
    const mapped = mapError(error);
    if (mapped.unexpected) throw error;
    const all: Record<string, string> = { ...mapped.headers, ...headers, "Cache-Control": "no-store" };
    if (mapped.status === 401 || mapped.status === 403) all["WWW-Authenticate"] = withResourceMetadata(mapped.headers["WWW-Authenticate"]);
    return { ok: false, response: Response.json(mapped.body, { status: mapped.status, headers: all }) };
  }
}
