import { env } from "@/lib/env";
import { ALL_SCOPES } from "@/lib/access/scopes";
import { SUPPORTED_GRANT_TYPES } from "@/lib/oauth/token/token-endpoint";

// Authorization server metadata (RFC 8414), served at /.well-known/oauth-authorization-server.
// The issuer is the API address, the `iss` of every access token; only authorize is on the web
// address (spec 4).

const CLIENT_AUTH_METHODS = ["client_secret_basic", "client_secret_post"];

export function authorizationServerMetadata() {
  const { API_URL, APP_URL } = env();
  return {
    issuer: API_URL,
    authorization_endpoint: `${APP_URL}/oauth/authorize`,
    token_endpoint: `${API_URL}/oauth/token`,
    revocation_endpoint: `${API_URL}/oauth/revoke`,
    // RFC 7591, for MCP clients: public clients (token_endpoint_auth_method "none"), docs/mcp.md.
    registration_endpoint: `${API_URL}/oauth/register`,
    jwks_uri: `${API_URL}/.well-known/jwks.json`,
    scopes_supported: ALL_SCOPES,
    response_types_supported: ["code"],
    response_modes_supported: ["query"],
    grant_types_supported: SUPPORTED_GRANT_TYPES,
    token_endpoint_auth_methods_supported: [...CLIENT_AUTH_METHODS, "none"],
    revocation_endpoint_auth_methods_supported: CLIENT_AUTH_METHODS,
    code_challenge_methods_supported: ["S256"],
  };
}
