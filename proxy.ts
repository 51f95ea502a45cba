import { NextResponse, type NextRequest } from "next/server";
import { methodNotAllowed } from "@/lib/api/unknown-path";
import { env } from "@/lib/env";
import { newNonce, securityHeaders } from "@/lib/security/headers";

// Every request: the security headers (lib/security/headers.ts), with a fresh CSP nonce that
// Next.js reads from the request's Content-Security-Policy header and puts on its scripts.
// The API additionally: a method a route does not serve gets the API's JSON 405 instead of Next's empty one.
export function proxy(req: NextRequest): Response {
  const e = env();
  const headers = securityHeaders({
    pathname: req.nextUrl.pathname,
    nonce: newNonce(),
    https: e.APP_URL.startsWith("https://"),
    development: e.NODE_ENV === "development",
    connectOrigins: e.S3_ENDPOINT ? [new URL(e.S3_ENDPOINT).origin] : [],
  });
  const csp = headers["Content-Security-Policy"] ?? "";

  const response = methodNotAllowed(req) ?? nextWith(req, csp);
  for (const [name, value] of Object.entries(headers)) response.headers.set(name, value);
  return response;
}

function nextWith(req: NextRequest, csp: string): NextResponse {
  const requestHeaders = new Headers(req.headers);
  requestHeaders.set("Content-Security-Policy", csp);
  return NextResponse.next({ request: { headers: requestHeaders } });
}

// Every path, Next's build files (scripts, styles) included: they need nosniff too.
export const config = { matcher: ["/:path*"] };
