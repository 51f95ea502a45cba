import { NextResponse, type NextRequest } from "next/server";
import { goneHtml, goneInvitation } from "@/components/invite/gone-page";
import { fallbackOf, fallbackPathname } from "@/lib/api/api-paths";
import { findInvitation } from "@/lib/guests/find-invitation";
import { withSecurityHeaders, type Forward } from "@/lib/security/proxy";
import { isForeignOrigin } from "@/lib/web/foreign-origin";

/**
 * A consent form posted from another site: Next.js would refuse the server action with a bare
 * 500. Answer 403 with the OAuth error page instead. The request is rewritten to that page
 * without the action's headers, so nothing of the action runs.
 */
function refuseForeignConsent(req: NextRequest, forward: Forward): Response | null {
  if (req.method !== "POST" || !isForeignOrigin(req.headers)) return null;
  const headers = new Headers(req.headers);
  for (const name of ["origin", "next-action", "content-type", "next-router-state-tree"]) headers.delete(name);
  return NextResponse.rewrite(new URL("/oauth/error?reason=foreign_origin", req.url), { status: 403, request: { headers: forward.requestHeaders(headers) } });
}

/**
 * An invitation link that was used or has expired: 410 Gone, so link checkers and logs tell it
 * from an unknown link (the page answers those with 404) and from a working one.
 */
async function goneInvitationLink(req: NextRequest, forward: Forward): Promise<Response | null> {
  if (req.method !== "GET" && req.method !== "HEAD") return null;
  const match = /^\/invite\/([^/]+)$/.exec(req.nextUrl.pathname);
  if (!match) return null;
  let token: string;
  try {
    token = decodeURIComponent(match[1] ?? "");
  } catch {
    return null;
  }
  // The database not reachable: the page answers (its error page), not a bare 500 of the proxy.
  const view = await findInvitation(token).catch(() => null);
  if (!view || (view.status !== "expired" && view.status !== "accepted")) return null;
  const page = { ...goneInvitation(view), ...(view.status === "expired" ? { renewAction: `/invite/${encodeURIComponent(token)}/renew` } : {}) };
  return new NextResponse(goneHtml(page, forward.nonce), {
    status: 410,
    headers: { "Content-Type": "text/html; charset=utf-8", "Cache-Control": "no-store" },
  });
}

/**
 * The API. Two kinds of request never reach a route handler of their own: a method the route does
 * not export (Next.js answers an empty 405) and a path that is not valid percent-encoded UTF-8
 * (Next.js fails decoding its params: a plain-text 500). Both are rewritten to the catch-all route,
 * which answers them as JSON with the API's headers (lib/api/unknown-path.ts). Only the path rules
 * (lib/api/api-paths.ts) are imported for this.
 */
function apiFallback(req: NextRequest, forward: Forward): Response {
  // The raw path, still percent-encoded (nextUrl may hold it decoded).
  const rawPathname = new URL(req.url).pathname;
  if (fallbackOf(req.method, rawPathname) === null) return forward.next();
  return NextResponse.rewrite(new URL(fallbackPathname(rawPathname), req.url), { request: { headers: forward.requestHeaders() } });
}

/**
 * Every request gets the security headers (lib/security/headers.ts) with a fresh CSP nonce, which
 * Next.js reads from the request and puts on its scripts; then the few paths above.
 */
export function proxy(req: NextRequest): Promise<Response> {
  return withSecurityHeaders(req, async (forward) => {
    const { pathname } = req.nextUrl;
    if (pathname === "/oauth/consent") return refuseForeignConsent(req, forward) ?? forward.next();
    if (pathname.startsWith("/invite/")) return (await goneInvitationLink(req, forward)) ?? forward.next();
    if (pathname === "/api/v1" || pathname.startsWith("/api/v1/")) return apiFallback(req, forward);
    return forward.next();
  });
}

// Every path, Next's build files (scripts, styles) included: they need nosniff too.
export const config = { matcher: ["/:path*"] };
