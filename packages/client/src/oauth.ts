// OAuth 2.0 for the client: the code exchange and the refresh, with refresh token rotation.

export interface Tokens {
  accessToken: string;
  /** Every refresh answers a new one; the one used stops working (after the server's 60 s grace). */
  refreshToken?: string;
  /** When the access token expires (from `expires_in`), if known. */
  expiresAt?: Date;
  scope?: string;
}

export interface OAuthClientCredentials {
  /** `<app URL>/oauth/token` (the OpenAPI document's tokenUrl). */
  tokenUrl: string;
  clientId: string;
  clientSecret: string;
}

export class OAuthError extends Error {
  constructor(
    readonly status: number,
    readonly error: string,
    readonly description: string,
  ) {
    super(`${error}: ${description}`);
    this.name = "OAuthError";
  }
}

type Fetch = (input: Request) => Promise<Response>;

async function tokenRequest(credentials: OAuthClientCredentials, params: Record<string, string>, fetchImpl: Fetch): Promise<Tokens> {
  const basic = btoa(`${encodeURIComponent(credentials.clientId)}:${encodeURIComponent(credentials.clientSecret)}`);
  const res = await fetchImpl(
    new Request(credentials.tokenUrl, {
      method: "POST",
      headers: { Authorization: `Basic ${basic}`, "Content-Type": "application/x-www-form-urlencoded", Accept: "application/json" },
      body: new URLSearchParams(params).toString(),
    }),
  );
  const body = (await res.json().catch(() => ({}))) as Record<string, unknown>;
  if (!res.ok) throw new OAuthError(res.status, String(body["error"] ?? "server_error"), String(body["error_description"] ?? `HTTP ${res.status}`));
  const expiresIn = typeof body["expires_in"] === "number" ? body["expires_in"] : undefined;
  return {
    accessToken: String(body["access_token"]),
    refreshToken: typeof body["refresh_token"] === "string" ? body["refresh_token"] : undefined,
    expiresAt: expiresIn === undefined ? undefined : new Date(Date.now() + expiresIn * 1000),
    scope: typeof body["scope"] === "string" ? body["scope"] : undefined,
  };
}

/** Exchanges an authorization code (with the PKCE verifier when the authorize request had a challenge). */
export function exchangeCode(
  credentials: OAuthClientCredentials,
  input: { code: string; redirectUri: string; codeVerifier?: string },
  fetchImpl: Fetch = (r) => fetch(r),
): Promise<Tokens> {
  return tokenRequest(
    credentials,
    {
      grant_type: "authorization_code",
      code: input.code,
      redirect_uri: input.redirectUri,
      ...(input.codeVerifier ? { code_verifier: input.codeVerifier } : {}),
    },
    fetchImpl,
  );
}

/**
 * Refreshes: answers the new access token and the rotated refresh token. A refresh whose answer
 * was lost (network error, 5xx) is retried with the same refresh token: within 60 s the server
 * answers a repeated refresh with the chain's current tokens, so the retry does not revoke it.
 */
export async function refreshTokens(
  credentials: OAuthClientCredentials,
  refreshToken: string,
  fetchImpl: Fetch = (r) => fetch(r),
  attempts = 3,
): Promise<Tokens> {
  for (let attempt = 1; ; attempt++) {
    try {
      const tokens = await tokenRequest(credentials, { grant_type: "refresh_token", refresh_token: refreshToken }, fetchImpl);
      return { ...tokens, refreshToken: tokens.refreshToken ?? refreshToken };
    } catch (error) {
      const transient = !(error instanceof OAuthError) || error.status >= 500;
      if (!transient || attempt >= attempts) throw error;
      await new Promise((resolve) => setTimeout(resolve, 250 * attempt));
    }
  }
}
