import { safeEqual, sha256Hex } from "@/lib/crypto";
import { rows, sql } from "@/lib/sql";
import { invalidClient, oauthInvalidRequest } from "@/lib/oauth/token/errors";
import type { OAuthParams } from "@/lib/oauth/token/read-params";
import { isScope, type Scope } from "@/lib/access/scopes";
import { textProblem } from "@/lib/text";

// Client authentication (RFC 6749 2.3.1): HTTP Basic or client_id + client_secret in the body,
// never both. Clients made under API settings are confidential (spec 5.6): a secret is always
// required of them. Clients registered dynamically (MCP, docs/mcp.md) are public: client_id alone,
// their codes bound by PKCE.

export interface AuthenticatedClient {
  /** OAuthClient.id */
  id: string;
  /** The public client_id. */
  clientId: string;
  orgId: string;
  allowedScopes: Scope[];
  /** A public client (dynamic registration): identified by client_id alone, PKCE required. */
  isPublic?: boolean;
}

/** Compared against when the client is unknown, so both failures take the same time. */
const NO_SUCH_SECRET = sha256Hex("no such client");

/** RFC 6749 2.3.1: id and secret are form-urlencoded before they are joined and encoded. */
function parseBasic(header: string): ClientCredentials {
  const match = /^basic\s+([A-Za-z0-9+/]+={0,2})\s*$/i.exec(header);
  const decoded = match?.[1] ? Buffer.from(match[1], "base64").toString("utf8") : "";
  const colon = decoded.indexOf(":");
  if (colon < 1) throw invalidClient("The Authorization header is not valid HTTP Basic client authentication");
  const formDecode = (s: string) => decodeURIComponent(s.replace(/\+/g, " "));
  let credentials: ClientCredentials;
  try {
    credentials = { clientId: formDecode(decoded.slice(0, colon)), clientSecret: formDecode(decoded.slice(colon + 1)) };
  } catch {
    throw invalidClient("The HTTP Basic credentials are not form-urlencoded");
  }
  const problem = textProblem(credentials.clientId) ?? textProblem(credentials.clientSecret);
  if (problem) throw oauthInvalidRequest(`Authorization: the HTTP Basic client_id or client_secret: ${problem}`);
  return credentials;
}

export interface ClientCredentials {
  clientId: string;
  clientSecret: string;
}

/** The client's id and secret as sent, or the error RFC 6749 2.3.1 asks for (no database query). */
export function clientCredentials(params: OAuthParams, authorization: string | null): ClientCredentials {
  if (authorization !== null) {
    const basic = parseBasic(authorization);
    if (params.has("client_secret")) {
      throw oauthInvalidRequest("Use one client authentication method: HTTP Basic or client_secret in the body, not both");
    }
    // A client_id in the body that repeats the Basic one is harmless (some libraries always send it).
    const bodyId = params.get("client_id");
    if (bodyId !== undefined && bodyId !== basic.clientId) throw oauthInvalidRequest("client_id in the body differs from the HTTP Basic one");
    return basic;
  }
  const clientId = params.get("client_id");
  const clientSecret = params.get("client_secret");
  if (clientId === undefined || clientSecret === undefined) {
    throw invalidClient("Client authentication is required: HTTP Basic, or client_id and client_secret in the body");
  }
  return { clientId, clientSecret };
}

/**
 * RFC 6749 2.1 / OAuth 2.1: a public client (token_endpoint_auth_method "none") sends its
 * client_id alone; its code is bound to it by PKCE instead (exchange-code.ts). Only a client that
 * is public may do so, and only once a member approved it (it then has an organization). Null
 * when the client_id is not a public client's.
 */
async function authenticatePublicClient(clientId: string): Promise<AuthenticatedClient | null> {
  const [client] = await rows(
    sql.selectFrom("OAuthClient").select(["id", "clientId", "orgId", "allowedScopes"]).where("clientId", "=", clientId).where("isPublic", "=", true),
  );
  if (!client) return null;
  if (!client.orgId) throw invalidClient();
  return { id: client.id, clientId: client.clientId, orgId: client.orgId, allowedScopes: client.allowedScopes.filter(isScope), isPublic: true };
}

/** The authenticated client, or 401 invalid_client (unknown client and wrong secret alike). */
export async function authenticateClient(params: OAuthParams, authorization: string | null): Promise<AuthenticatedClient> {
  const publicId = params.get("client_id");
  // Any other client without credentials gets the answer of clientCredentials (RFC 6749 2.3.1).
  const publicClient = authorization === null && publicId !== undefined && !params.has("client_secret") ? await authenticatePublicClient(publicId) : null;
  if (publicClient) return publicClient;
  const { clientId, clientSecret } = clientCredentials(params, authorization);
  // Straight through pg: on every token request, and Prisma's per-query work costs more than the query.
  const [client] = await rows(
    sql
      .selectFrom("OAuthClient")
      .select(["id", "clientId", "orgId", "allowedScopes", "secretHash"])
      .where("clientId", "=", clientId)
      .where("orgId", "is not", null),
  );
  // A registered client nobody approved yet has no organization (and no secret): never found here.
  if (!safeEqual(sha256Hex(clientSecret), client?.secretHash ?? NO_SUCH_SECRET) || !client?.orgId) throw invalidClient();
  return { id: client.id, clientId: client.clientId, orgId: client.orgId, allowedScopes: client.allowedScopes.filter(isScope) };
}
