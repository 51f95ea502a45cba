import { oauthInvalidRequest } from "@/lib/oauth/token/errors";
import { readCappedText } from "@/lib/request-body";
import { textProblem } from "@/lib/text";

// The body of a token or revocation request, form-encoded (RFC 6749) or JSON (spec 5.3), as one
// flat map of string parameters. Empty values count as absent (RFC 6749 3.1).

/** Far above any real token request; stops a client from making us buffer megabytes. */
const MAX_BODY_BYTES = 16 * 1024;

export type OAuthParams = ReadonlyMap<string, string>;

/** Parameters of both endpoints; in JSON any other field is ignored whatever its type (D3). */
const KNOWN = new Set([
  "grant_type",
  "code",
  "redirect_uri",
  "code_verifier",
  "client_id",
  "client_secret",
  "refresh_token",
  "scope",
  "token",
  "token_type_hint",
]);

function bodyTooLarge(): Error {
  const error = oauthInvalidRequest("The request body is too large");
  // The rest of the body is still on the connection: close it after this answer (RFC 9112 9.6).
  error.headers["Connection"] = "close";
  return error;
}

function fromForm(text: string): OAuthParams {
  const params = new Map<string, string>();
  for (const [key, value] of new URLSearchParams(text)) {
    // RFC 6749 3.1: parameters must not be repeated; which copy to believe is undefined.
    if (params.has(key)) throw oauthInvalidRequest(`Parameter ${key} is repeated`);
    if (value !== "") params.set(key, value);
  }
  return params;
}

function fromJson(text: string): OAuthParams {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw oauthInvalidRequest("The request body is not valid JSON");
  }
  if (typeof body !== "object" || body === null || Array.isArray(body)) throw oauthInvalidRequest("The request body must be a JSON object");
  const params = new Map<string, string>();
  for (const [key, value] of Object.entries(body)) {
    if (!KNOWN.has(key) || value === null || value === "") continue;
    if (typeof value !== "string") throw oauthInvalidRequest(`Parameter ${key} must be a string`);
    params.set(key, value);
  }
  return params;
}

export async function readOAuthParams(request: Request): Promise<OAuthParams> {
  const mediaType = (request.headers.get("content-type") ?? "").split(";")[0]?.trim().toLowerCase();
  if (mediaType !== "application/x-www-form-urlencoded" && mediaType !== "application/json") {
    throw oauthInvalidRequest("Content-Type must be application/x-www-form-urlencoded or application/json");
  }
  const text = await readCappedText(request, MAX_BODY_BYTES, bodyTooLarge);
  const params = mediaType === "application/json" ? fromJson(text) : fromForm(text);
  for (const [name, value] of params) {
    const problem = textProblem(value);
    if (problem) throw oauthInvalidRequest(`Parameter ${name}: ${problem}`);
  }
  return params;
}

/** A required parameter, or invalid_request naming it. */
export function requireParam(params: OAuthParams, name: string): string {
  const value = params.get(name);
  if (value === undefined) throw oauthInvalidRequest(`Missing parameter: ${name}`);
  return value;
}
