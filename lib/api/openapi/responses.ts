import type { OpenApiHeader, OpenApiResponse } from "./types";

// The wrapper's standard error responses and headers, documented once and referenced by every
// operation.

const error = (description: string, headers: string[] = []): OpenApiResponse => ({
  description,
  headers: Object.fromEntries(["X-Request-Id", "X-API-Version", ...headers].map((h) => [h, { $ref: `#/components/headers/${h}` }])),
  content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } },
});

export const ERROR_RESPONSES: Record<string, OpenApiResponse> = {
  "400": error(
    "invalid_request: a parameter or body field is missing or has the wrong type (the description names it), malformed JSON, or an invalid Idempotency-Key",
  ),
  "401": error("invalid_token: missing, malformed, expired or revoked access token", ["WWW-Authenticate"]),
  "403": error(
    "insufficient_scope or api_access_disabled: the token lacks the scope (WWW-Authenticate names it), or the organization needs an enterprise plan with API access",
    ["WWW-Authenticate"],
  ),
  "404": error("not_found: no such resource in the token's organization (malformed ids included)"),
  "409": error("conflict: the Idempotency-Key was used with a different request, or that request is still running"),
  "413": error("payload_too_large: the request body exceeds the limit"),
  "429": error("rate_limit_exceeded: the client's daily request limit is reached", ["Retry-After"]),
  "500": error("server_error: an unexpected error; quote X-Request-Id when reporting it"),
};

const integer = { type: "integer" };
const string = { type: "string" };

export const HEADERS: Record<string, OpenApiHeader> = {
  "X-Request-Id": { description: "The request's id (the client's own when it sent a plain one)", schema: string },
  "X-API-Version": { description: "API version, 1.0.2", schema: string },
  "X-RateLimit-Limit": { description: "Requests allowed per OAuth client per UTC day", schema: integer },
  "X-RateLimit-Remaining": { description: "Requests left today", schema: integer },
  "X-RateLimit-Reset": { description: "Unix seconds of the next 00:00 UTC", schema: integer },
  "Retry-After": { description: "Seconds until the limit resets", schema: integer },
  "WWW-Authenticate": { description: "RFC 6750 Bearer challenge", schema: string },
  Link: { description: 'Next page: `<url>; rel="next"`, absent on the last page', schema: string },
};

export function successHeaders(authenticated: boolean, paginated: boolean): Record<string, { $ref: string }> {
  const names = ["X-Request-Id", "X-API-Version"];
  if (authenticated) names.push("X-RateLimit-Limit", "X-RateLimit-Remaining", "X-RateLimit-Reset");
  if (paginated) names.push("Link");
  return Object.fromEntries(names.map((h) => [h, { $ref: `#/components/headers/${h}` }]));
}
