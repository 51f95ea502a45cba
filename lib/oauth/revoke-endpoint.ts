import { revokeToken } from "@/lib/oauth/revoke";
import { authenticateClient } from "@/lib/oauth/token/client-auth";
import { handleOAuth, oauthEmpty } from "@/lib/oauth/token/http";
import { readOAuthParams, requireParam } from "@/lib/oauth/token/read-params";

// POST {base_url}/oauth/revoke (RFC 7009). token_type_hint is accepted and not needed: both
// kinds are looked up, as RFC 7009 2.1 asks when the hint does not find the token.

export function handleRevokeRequest(request: Request): Promise<Response> {
  return handleOAuth(async () => {
    const params = await readOAuthParams(request);
    const client = await authenticateClient(params, request.headers.get("authorization"));
    await revokeToken({ client, token: requireParam(params, "token") });
    return oauthEmpty();
  });
}
