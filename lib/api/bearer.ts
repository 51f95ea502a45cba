import { AppError } from "@/lib/errors";

const REALM = "client-portals";

/**
 * The access token of `Authorization: Bearer <token>`. RFC 6750 §3.1: a request without any
 * credentials gets a challenge without an error code; credentials of the wrong form are
 * `invalid_token`. Tokens in the query string or body are not accepted.
 */
export function readBearerToken(req: Request): string {
  const header = req.headers.get("authorization");
  if (header === null || header.trim() === "") {
    throw new AppError("invalid_token", "An access token is required: send Authorization: Bearer <token>", {
      "WWW-Authenticate": `Bearer realm="${REALM}"`,
    });
  }
  const match = /^Bearer +([A-Za-z0-9\-._~+/]+=*) *$/i.exec(header);
  if (!match?.[1]) {
    const description = "The Authorization header must be Bearer <token>";
    throw new AppError("invalid_token", description, {
      // The same form as verifyAccessToken's challenges (D3).
      "WWW-Authenticate": `Bearer error="invalid_token", error_description="${description}"`,
    });
  }
  return match[1];
}
