import { db } from "@/lib/db";
import { randomToken, sha256Hex } from "@/lib/crypto";
import { AppError, invalidRequest } from "@/lib/errors";
import { approvingOrg } from "@/lib/oauth/clients/dynamic";
import { knownResource } from "@/lib/oauth/resource";
import { parseScopeString, type Scope } from "@/lib/access/scopes";
import { isStorableText } from "@/lib/text";

// The authorize side of the code flow (D23): checking the request, then issuing a code for the
// scopes the user approved.

const CODE_TTL_SECONDS = 5 * 60;
const PKCE_CHALLENGE = /^[A-Za-z0-9_-]{43,128}$/;

export interface AuthorizeParams {
  client_id?: string | null;
  response_type?: string | null;
  redirect_uri?: string | null;
  scope?: string | null;
  state?: string | null;
  code_challenge?: string | null;
  code_challenge_method?: string | null;
  /** RFC 8707, optional: the resource the token is for (lib/oauth/resource.ts). */
  resource?: string | null;
}

interface AuthorizeClient {
  id: string;
  clientId: string;
  name: string;
  /** Null: a dynamically registered client no member has approved yet (lib/oauth/clients/dynamic.ts). */
  orgId: string | null;
  orgName: string | null;
}

export interface AuthorizeRequest {
  client: AuthorizeClient;
  redirectUri: string;
  scopes: Scope[];
  state: string | null;
  codeChallenge: string | null;
  codeChallengeMethod: "S256" | null;
  /** The canonical resource indicator; null or absent: the REST API. */
  resource?: string | null;
}

export type AuthorizeCheck =
  /** Never redirect: the client or redirect URI cannot be trusted. */
  | { kind: "error_page"; message: string }
  /** Send the error back to the client's redirect URI. */
  | { kind: "redirect_error"; redirectUri: string; error: string; description: string; state: string | null }
  | { kind: "ok"; request: AuthorizeRequest };

/** Checks an authorization request. Errors that cannot be sent to a trusted redirect URI are pages. */
export async function checkAuthorizeRequest(params: AuthorizeParams): Promise<AuthorizeCheck> {
  // D3: NUL or a lone surrogate cannot be looked up; nothing about such a request can be trusted.
  const unreadable = Object.entries(params).find(([, value]) => typeof value === "string" && !isStorableText(value));
  if (unreadable) return { kind: "error_page", message: `The request's ${unreadable[0]} is not valid text.` };
  const clientId = params.client_id?.trim();
  if (!clientId) return { kind: "error_page", message: "The request has no client_id." };
  const client = await db.oAuthClient.findUnique({
    where: { clientId },
    select: { id: true, clientId: true, name: true, orgId: true, redirectUris: true, allowedScopes: true, isPublic: true, org: { select: { name: true } } },
  });
  if (!client) return { kind: "error_page", message: "This application is not registered." };
  const redirectUri = params.redirect_uri ?? "";
  if (!client.redirectUris.includes(redirectUri)) {
    return { kind: "error_page", message: "The redirect URI is not registered for this application." };
  }

  const state = params.state ?? null;
  const fail = (error: string, description: string): AuthorizeCheck => ({ kind: "redirect_error", redirectUri, error, description, state });
  if (params.response_type !== "code") return fail("unsupported_response_type", "response_type must be code");

  const requested = params.scope?.trim() ? parseScopeString(params.scope) : { scopes: client.allowedScopes as Scope[], unknown: [] };
  if (requested.unknown.length > 0) return fail("invalid_scope", `Unknown scope: ${requested.unknown.join(" ")}`);
  const notAllowed = requested.scopes.filter((s) => !client.allowedScopes.includes(s));
  if (notAllowed.length > 0) return fail("invalid_scope", `Scope not allowed for this client: ${notAllowed.join(" ")}`);
  if (requested.scopes.length === 0) return fail("invalid_scope", "No scope requested");

  const challenge = params.code_challenge ?? null;
  const method = params.code_challenge_method ?? null;
  if (challenge === null && method !== null) return fail("invalid_request", "code_challenge_method without code_challenge");
  if (challenge !== null) {
    if ((method ?? "plain") !== "S256") return fail("invalid_request", "code_challenge_method must be S256");
    if (!PKCE_CHALLENGE.test(challenge)) return fail("invalid_request", "code_challenge is malformed");
  }
  // OAuth 2.1: a public client has no secret, so PKCE is what binds the code to it.
  if (client.isPublic && challenge === null) return fail("invalid_request", "code_challenge is required for public clients (PKCE, S256)");
  const resource = params.resource ? knownResource(params.resource) : null;
  if (params.resource && !resource) return fail("invalid_target", `Unknown resource: ${params.resource}`);

  return {
    kind: "ok",
    request: {
      client: { id: client.id, clientId: client.clientId, name: client.name, orgId: client.orgId, orgName: client.org?.name ?? null },
      redirectUri,
      scopes: requested.scopes,
      state,
      codeChallenge: challenge,
      codeChallengeMethod: challenge ? "S256" : null,
      resource,
    },
  };
}

/** `redirect_uri` with the given parameters added (keeping any query it already has). */
export function redirectWith(redirectUri: string, params: Record<string, string | null | undefined>): string {
  const url = new URL(redirectUri);
  for (const [k, v] of Object.entries(params)) if (v !== null && v !== undefined) url.searchParams.set(k, v);
  return url.toString();
}

/** A single-use code for the approved scopes, valid 5 minutes; stored only as its hash. */
export async function issueAuthorizationCode(input: { request: AuthorizeRequest; userId: string; approvedScopes: Scope[] }): Promise<string> {
  const { request, userId, approvedScopes } = input;
  if (approvedScopes.length === 0 || approvedScopes.some((s) => !request.scopes.includes(s))) {
    throw invalidRequest("approved scopes must be a non-empty part of the requested ones");
  }
  // Tokens act in the client's organization, so only its members and admins may approve; a
  // dynamically registered client becomes a client of the first approver's organization.
  const orgId = await approvingOrg(request.client, userId);
  const membership = orgId ? await db.membership.findUnique({ where: { orgId_userId: { orgId, userId } }, select: { id: true } }) : null;
  if (!orgId || !membership) throw new AppError("forbidden", `Only members of ${request.client.orgName ?? "an organization"} can authorize this application`);
  const code = randomToken(32);
  await db.oAuthAuthorizationCode.create({
    data: {
      codeHash: sha256Hex(code),
      clientId: request.client.id,
      orgId,
      resource: request.resource ?? null,
      userId,
      scopes: approvedScopes,
      redirectUri: request.redirectUri,
      codeChallenge: request.codeChallenge,
      codeChallengeMethod: request.codeChallengeMethod,
      expiresAt: new Date(Date.now() + CODE_TTL_SECONDS * 1000),
    },
  });
  return code;
}
