import { db } from "@/lib/db";
import { env } from "@/lib/env";
import { checkAuthorizeRequest, issueAuthorizationCode } from "@/lib/oauth/authorize";
import type { Scope } from "@/lib/access/scopes";
import { refreshTokenHash } from "@/lib/oauth/token/refresh-token-value";
import { createTestClient, createTestOrg, createTestUser } from "@/lib/test-support/fixtures";
import { POST as tokenPOST } from "@/app/oauth/token/route";
import { POST as revokePOST } from "@/app/oauth/revoke/route";

// Integration-test helpers: real Requests into the real route handlers.

export const REDIRECT_URI = "https://client.example/callback";

/** An organization with a member, and a client of it with its secret. */
export async function createOAuthSetup(options: { scopes?: Scope[] } = {}) {
  const org = await createTestOrg();
  const user = await createTestUser({ orgId: org.id, role: "admin" });
  const { client, secret } = await createTestClient({ orgId: org.id, actorUserId: user.id, scopes: options.scopes, redirectUris: [REDIRECT_URI] });
  return { org, user, client, secret };
}

type Setup = Awaited<ReturnType<typeof createOAuthSetup>>;

/** A code as the consent screen issues it, for the given scopes and PKCE challenge. */
export async function issueCode(setup: Setup, options: { scopes?: Scope[]; codeChallenge?: string } = {}): Promise<string> {
  const check = await checkAuthorizeRequest({
    client_id: setup.client.clientId,
    response_type: "code",
    redirect_uri: REDIRECT_URI,
    scope: options.scopes?.join(" ") ?? null,
    code_challenge: options.codeChallenge ?? null,
    code_challenge_method: options.codeChallenge ? "S256" : null,
  });
  if (check.kind !== "ok") throw new Error(`authorize check failed: ${JSON.stringify(check)}`);
  return issueAuthorizationCode({ request: check.request, userId: setup.user.id, approvedScopes: check.request.scopes });
}

export function basicAuth(id: string, secret: string): string {
  const enc = (s: string) => encodeURIComponent(s).replace(/%20/g, "+");
  return `Basic ${Buffer.from(`${enc(id)}:${enc(secret)}`).toString("base64")}`;
}

export interface PostOptions {
  json?: boolean;
  headers?: Record<string, string>;
}

function oauthRequest(path: string, params: Record<string, string>, options: PostOptions): Request {
  const body = options.json ? JSON.stringify(params) : new URLSearchParams(params).toString();
  const contentType = options.json ? "application/json" : "application/x-www-form-urlencoded";
  return new Request(`${env().API_URL}${path}`, { method: "POST", headers: { "content-type": contentType, ...options.headers }, body });
}

export interface OAuthResult {
  status: number;
  headers: Headers;
  body: Record<string, unknown>;
}

async function resultOf(response: Response): Promise<OAuthResult> {
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text ? (JSON.parse(text) as Record<string, unknown>) : {} };
}

export async function postToken(params: Record<string, string>, options: PostOptions = {}): Promise<OAuthResult> {
  return resultOf(await tokenPOST(oauthRequest("/oauth/token", params, options)));
}

export async function postRevoke(params: Record<string, string>, options: PostOptions = {}): Promise<OAuthResult> {
  return resultOf(await revokePOST(oauthRequest("/oauth/revoke", params, options)));
}

/** Client credentials in the body. */
export const creds = (setup: Setup) => ({ client_id: setup.client.clientId, client_secret: setup.secret });

/** Exchanges a fresh code; returns the token response body. */
export async function obtainTokens(setup: Setup, scopes?: Scope[]) {
  const code = await issueCode(setup, { scopes });
  const result = await postToken({ grant_type: "authorization_code", code, redirect_uri: REDIRECT_URI, ...creds(setup) });
  if (result.status !== 200) throw new Error(`code exchange failed: ${JSON.stringify(result.body)}`);
  return result.body as { access_token: string; refresh_token: string; scope: string; expires_in: number; token_type: string };
}

/** A refresh_token grant with the client's credentials in the body (and any extra parameters). */
export const refresh = (setup: Setup, refreshToken: string, extra: Record<string, string> = {}) =>
  postToken({ grant_type: "refresh_token", refresh_token: refreshToken, ...creds(setup), ...extra });

/** The stored row of a refresh token. */
export const rowOf = (token: string) => db.oAuthRefreshToken.findUniqueOrThrow({ where: { tokenHash: refreshTokenHash(token) } });

/** Every refresh token of the token's grant, oldest first. */
export async function chainOf(token: string) {
  const { grantId } = await rowOf(token);
  return db.oAuthRefreshToken.findMany({ where: { grantId }, orderBy: { createdAt: "asc" } });
}
