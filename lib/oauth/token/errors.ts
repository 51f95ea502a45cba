// Token and revocation endpoint errors (RFC 6749 5.2, RFC 7009 2.2.1). They are not AppErrors:
// their codes and statuses belong to OAuth, not to the /api/v1 error table (D3, D23).

export type OAuthErrorCode =
  | "invalid_request"
  | "invalid_client"
  | "invalid_grant"
  | "unauthorized_client"
  | "unsupported_grant_type"
  | "invalid_scope"
  | "server_error"
  // RFC 8707 (resource indicators) and RFC 7591 (dynamic registration).
  | "invalid_target"
  | "invalid_client_metadata"
  | "invalid_redirect_uri";

/** The challenge sent with every 401: HTTP requires one, RFC 6749 5.2 requires it for Basic. */
const BASIC_CHALLENGE = 'Basic realm="client-portals"';

export class OAuthError extends Error {
  readonly error: OAuthErrorCode;
  readonly status: number;
  readonly headers: Record<string, string>;

  constructor(error: OAuthErrorCode, description: string) {
    super(description);
    this.name = "OAuthError";
    this.error = error;
    this.status = error === "invalid_client" ? 401 : error === "server_error" ? 500 : 400;
    this.headers = error === "invalid_client" ? { "WWW-Authenticate": BASIC_CHALLENGE } : {};
  }
}

export const invalidGrant = (description: string) => new OAuthError("invalid_grant", description);
export const invalidClient = (description = "Client authentication failed") => new OAuthError("invalid_client", description);
export const oauthInvalidRequest = (description: string) => new OAuthError("invalid_request", description);
export const invalidScope = (description: string) => new OAuthError("invalid_scope", description);
