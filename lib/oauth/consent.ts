import { createHmac, hkdfSync } from "node:crypto";
import { signInPath } from "@/lib/auth/safe-return";
import { safeEqual, sha256Hex } from "@/lib/crypto";
import { db } from "@/lib/db";
import { env } from "@/lib/env";
import { isAppError } from "@/lib/errors";
import {
  checkAuthorizeRequest,
  issueAuthorizationCode,
  redirectWith,
  type AuthorizeCheck,
  type AuthorizeParams,
  type AuthorizeRequest,
} from "@/lib/oauth/authorize";

// The web side of the authorize step: where GET /oauth/authorize sends the browser, the token
// that binds a consent form to its user and request, and what Approve or Deny leads to.

const PARAM_NAMES = ["client_id", "response_type", "redirect_uri", "scope", "state", "code_challenge", "code_challenge_method", "resource"] as const;

type QuerySource = URLSearchParams | FormData | Record<string, string | string[] | undefined>;

function first(source: QuerySource, name: string): string | null {
  if (source instanceof URLSearchParams || source instanceof FormData) {
    const value = source.get(name);
    return typeof value === "string" ? value : null;
  }
  const value = source[name];
  return (Array.isArray(value) ? value[0] : value) ?? null;
}

/** The authorize parameters of a query or form. A repeated parameter counts by its first value. */
export function authorizeParamsFrom(source: QuerySource): AuthorizeParams {
  return Object.fromEntries(PARAM_NAMES.map((name) => [name, first(source, name)])) as AuthorizeParams;
}

/** The authorize parameters as a query string, without anything else the URL carried. */
export function authorizeQuery(params: AuthorizeParams): string {
  const query = new URLSearchParams();
  for (const name of PARAM_NAMES) {
    const value = params[name];
    if (value !== null && value !== undefined) query.set(name, value);
  }
  return query.toString();
}

/**
 * Where GET /oauth/authorize sends the browser: an app-relative path, or the client's registered
 * redirect URI for errors it may be told about (D23). Errors about the client or the redirect URI
 * go to our error page, which checks the same parameters again rather than echo a message.
 */
export function authorizeRedirect(check: AuthorizeCheck, params: AuthorizeParams, signedIn: boolean): string {
  const query = authorizeQuery(params);
  if (check.kind === "error_page") return `/oauth/error?${query}`;
  if (check.kind === "redirect_error") {
    return redirectWith(check.redirectUri, { error: check.error, error_description: check.description, state: check.state });
  }
  if (!signedIn) return signInPath(`/oauth/authorize?${query}`);
  return `/oauth/consent?${query}`;
}

/**
 * The longest Location GET /oauth/authorize answers with. The consent and error targets carry the
 * request's parameters (the sign-in target only up to signInPath's limit), so a request near the
 * server's 16 KB header limit would come back as a redirect longer than clients and proxies read
 * (Node's and undici's limit is 16 KB for all response headers; common proxies' buffers are 4-8 KB).
 */
export const MAX_AUTHORIZE_LOCATION = 8 * 1024;

/** GET /oauth/authorize's answer: a redirect to `location`, or 414 when it is too long to send. */
export function authorizeResponse(location: string): Response {
  if (location.length > MAX_AUTHORIZE_LOCATION) {
    return new Response("This authorization request is too long. Start again from the application.", {
      status: 414,
      headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" },
    });
  }
  return new Response(null, { status: 302, headers: { Location: location, "Cache-Control": "no-store" } });
}

// Consent form token: Next.js already refuses cross-origin server actions; this also ties the form
// to the signed-in user and to exactly the request shown, so a form rendered for one request or
// user cannot approve another, and an old form cannot be replayed later; each form is answered once.

export const CONSENT_TOKEN_TTL_SECONDS = 10 * 60;
/** Clocks of several servers may differ a little. */
const CLOCK_SKEW_SECONDS = 60;

function mac(userId: string, request: AuthorizeRequest, issuedAt: number, secret: string): string {
  // A key of its own, so this MAC can never be mistaken for anything else signed with AUTH_SECRET.
  const key = Buffer.from(hkdfSync("sha256", secret, "", "client-portals oauth consent form v1", 32));
  // JSON keeps the fields apart: no value can shift into its neighbour.
  const payload = JSON.stringify([
    userId,
    request.client.clientId,
    request.redirectUri,
    request.scopes.join(" "),
    request.state,
    request.codeChallenge,
    request.codeChallengeMethod,
    issuedAt,
    // Only when present, so a form without one keeps the MAC it always had.
    ...(request.resource ? [request.resource] : []),
  ]);
  return createHmac("sha256", key).update(payload).digest("base64url");
}

interface TokenInput {
  userId: string;
  request: AuthorizeRequest;
  now?: Date;
  secret?: string;
}

export function createConsentToken({ userId, request, now = new Date(), secret = env().AUTH_SECRET }: TokenInput): string {
  const issuedAt = Math.floor(now.getTime() / 1000);
  return `${issuedAt}.${mac(userId, request, issuedAt, secret)}`;
}

export type ConsentTokenCheck = "valid" | "expired" | "invalid";

export function verifyConsentToken({
  token,
  userId,
  request,
  now = new Date(),
  secret = env().AUTH_SECRET,
}: TokenInput & { token: string }): ConsentTokenCheck {
  const match = /^(\d{1,12})\.([A-Za-z0-9_-]{43})$/.exec(token);
  if (!match) return "invalid";
  const issuedAt = Number(match[1]);
  if (!safeEqual(match[2] ?? "", mac(userId, request, issuedAt, secret))) return "invalid";
  const age = Math.floor(now.getTime() / 1000) - issuedAt;
  if (age < -CLOCK_SKEW_SECONDS) return "invalid";
  return age > CONSENT_TOKEN_TTL_SECONDS ? "expired" : "valid";
}

/** Messages of the error page for failures found after the request itself checked out. */
export const CONSENT_ERRORS = {
  invalid_form: "This consent form does not belong to this request or to you. Go back to the application and start again.",
  used_form: "This consent form was already answered, so it cannot be sent again. Go back to the application and start again.",
  foreign_origin: "This consent form was sent from another website, so it was refused. Go back to the application and start again.",
  not_member: "Only members of the application's organization can authorize it.",
} as const;

export type ConsentErrorReason = keyof typeof CONSENT_ERRORS;

export function denialRedirect(request: AuthorizeRequest): string {
  return redirectWith(request.redirectUri, { error: "access_denied", error_description: "The user denied the request", state: request.state });
}

/**
 * Marks a valid consent token as answered. True the first time, false for every replay of the
 * same form (the primary key decides, so two concurrent submissions cannot both pass).
 */
async function consumeConsentToken(token: string, now: Date = new Date()): Promise<boolean> {
  const expiresAt = new Date(now.getTime() + (CONSENT_TOKEN_TTL_SECONDS + CLOCK_SKEW_SECONDS) * 1000);
  // Rows are only needed while a token could still verify.
  await db.oAuthConsentFormUse.deleteMany({ where: { expiresAt: { lt: now } } });
  const { count } = await db.oAuthConsentFormUse.createMany({ data: [{ tokenHash: sha256Hex(token), expiresAt }], skipDuplicates: true });
  return count === 1;
}

/**
 * Approve or Deny on the consent screen. The request is checked again from the form's fields (the
 * form is no more trusted than the query was), then the token. Approving with nothing ticked is a
 * denial; ticked values outside the request are ignored, so the form can only narrow. Returns the
 * URL to send the browser to: the client's redirect URI, or an app-relative page.
 */
export async function decideConsent(input: {
  userId: string;
  params: AuthorizeParams;
  token: string;
  approve: boolean;
  checkedScopes: string[];
  now?: Date;
}): Promise<string> {
  const check = await checkAuthorizeRequest(input.params);
  if (check.kind !== "ok") return authorizeRedirect(check, input.params, true);
  const { request } = check;

  const token = verifyConsentToken({ token: input.token, userId: input.userId, request, now: input.now });
  if (token === "invalid") return "/oauth/error?reason=invalid_form";
  // An expired form shows the screen again with a fresh token rather than a dead end.
  if (token === "expired") return `/oauth/consent?${authorizeQuery(input.params)}&expired=1`;
  // Single use: a captured Approve sent again (with the user's session) issues no second code.
  if (!(await consumeConsentToken(input.token, input.now))) return "/oauth/error?reason=used_form";

  const approved = request.scopes.filter((s) => input.checkedScopes.includes(s));
  if (!input.approve || approved.length === 0) return denialRedirect(request);
  try {
    const code = await issueAuthorizationCode({ request, userId: input.userId, approvedScopes: approved });
    return redirectWith(request.redirectUri, { code, state: request.state });
  } catch (e) {
    if (isAppError(e) && e.code === "forbidden") return "/oauth/error?reason=not_member";
    throw e;
  }
}
