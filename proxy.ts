import { NextResponse, type NextRequest } from "next/server";
import { methodNotAllowed } from "@/lib/api/unknown-path";
import { isForeignOrigin } from "@/lib/web/foreign-origin";

/**
 * A consent form posted from another site: Next.js would refuse the server action with a bare
 * 500. Answer 403 with the OAuth error page instead. The request is rewritten to that page
 * without the action's headers, so nothing of the action runs.
 */
function refuseForeignConsent(req: NextRequest): Response | null {
  if (req.method !== "POST" || !isForeignOrigin(req.headers)) return null;
  const headers = new Headers(req.headers);
  for (const name of ["origin", "next-action", "content-type", "next-router-state-tree"]) headers.delete(name);
  return NextResponse.rewrite(new URL("/oauth/error?reason=foreign_origin", req.url), { status: 403, request: { headers } });
}

export function proxy(req: NextRequest): Response {
  if (req.nextUrl.pathname === "/oauth/consent") return refuseForeignConsent(req) ?? NextResponse.next();
  // The API: a method a route does not serve gets the API's JSON 405 instead of Next's empty one.
  return methodNotAllowed(req) ?? NextResponse.next();
}

export const config = { matcher: ["/api/v1/:path*", "/oauth/consent"] };
