import { issueAccessToken } from "@/lib/oauth/access-token";
import { formatScopes } from "@/lib/access/scopes";
import { authenticateClient, clientCredentials, type AuthenticatedClient } from "@/lib/oauth/token/client-auth";
import { OAuthError } from "@/lib/oauth/token/errors";
import { exchangeAuthorizationCode } from "@/lib/oauth/token/exchange-code";
import type { Granted } from "@/lib/oauth/token/granted";
import { handleOAuth, oauthJson } from "@/lib/oauth/token/http";
import { readOAuthParams, requireParam, type OAuthParams } from "@/lib/oauth/token/read-params";
import { refreshAccessToken, refreshInOneStatement } from "@/lib/oauth/token/refresh";

// POST {base_url}/oauth/token (spec 4 and 5, RFC 6749 section 5).

const GRANTS: Record<string, (client: AuthenticatedClient, params: OAuthParams) => Promise<Granted>> = {
  authorization_code: exchangeAuthorizationCode,
  refresh_token: refreshAccessToken,
};

export const SUPPORTED_GRANT_TYPES = Object.keys(GRANTS);

export function handleTokenRequest(request: Request): Promise<Response> {
  return handleOAuth(async () => {
    const params = await readOAuthParams(request);
    const grantType = requireParam(params, "grant_type");
    const authorization = request.headers.get("authorization");
    // A public client (client_id alone) takes the precise path, which authenticates it.
    if (grantType === "refresh_token" && (authorization !== null || params.has("client_secret"))) {
      // The usual refresh in one statement; anything else (an error, the grace answer, a reused
      // token) takes the precise path below, which reads the state afresh (see refresh.ts).
      const fast = await refreshInOneStatement(clientCredentials(params, authorization), params);
      if (fast) return tokenResponse(fast.clientId, fast.granted);
    }
    const client = await authenticateClient(params, authorization);
    const grant = Object.hasOwn(GRANTS, grantType) ? GRANTS[grantType] : undefined;
    if (!grant) throw new OAuthError("unsupported_grant_type", `grant_type must be one of: ${SUPPORTED_GRANT_TYPES.join(", ")}`);
    return tokenResponse(client.clientId, await grant(client, params));
  });
}

/** RFC 6749 5.1: the access token of what was granted, and the refresh token. */
async function tokenResponse(clientId: string, granted: Granted): Promise<Response> {
  const { grantId, userId, orgId, scopes, resource } = granted;
  const access = await issueAccessToken({ grantId, userId, orgId, scopes, clientId, resource });
  return oauthJson({
    access_token: access.token,
    token_type: "Bearer",
    expires_in: access.expiresIn,
    refresh_token: granted.refreshToken,
    scope: formatScopes(scopes),
  });
}
