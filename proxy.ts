import { NextResponse, type NextRequest } from "next/server";
import { fallbackOf, fallbackPathname } from "@/lib/api/api-paths";

// Only the API. Two kinds of request never reach a route handler of their own: a method the route
// does not export (Next.js answers an empty 405) and a path that is not valid percent-encoded
// UTF-8 (Next.js fails decoding its params: a plain-text 500). Both are rewritten to the catch-all
// route, which answers them as JSON with the API's headers (lib/api/unknown-path.ts). Only the
// path rules (lib/api/api-paths.ts) are imported here: nothing that reaches the database.
export function proxy(req: NextRequest): Response {
  // The raw path, still percent-encoded (nextUrl may hold it decoded).
  const rawPathname = new URL(req.url).pathname;
  if (fallbackOf(req.method, rawPathname) === null) return NextResponse.next();
  return NextResponse.rewrite(new URL(fallbackPathname(rawPathname), req.url));
}

export const config = { matcher: ["/api/v1/:path*"] };
