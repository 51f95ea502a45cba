import type { NextRequest } from "next/server";
import { methodNotAllowed } from "@/lib/api/unknown-path";
import { withSecurityHeaders } from "@/lib/security/proxy";

// Every request: the security headers (lib/security/headers.ts) with a fresh CSP nonce, which
// Next.js reads from the request and puts on its scripts. The API additionally: a method a route
// does not serve gets the API's JSON 405 instead of Next's empty one.
export function proxy(req: NextRequest): Promise<Response> {
  return withSecurityHeaders(req, ({ next }) => methodNotAllowed(req) ?? next());
}

// Every path, Next's build files (scripts, styles) included: they need nosniff too.
export const config = { matcher: ["/:path*"] };
