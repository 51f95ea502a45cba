import { NextResponse, type NextRequest } from "next/server";
import { methodNotAllowed } from "@/lib/api/unknown-path";

// Only the API: a method a route does not serve gets the API's JSON 405 instead of Next's empty one.
export function proxy(req: NextRequest): Response {
  return methodNotAllowed(req) ?? NextResponse.next();
}

export const config = { matcher: ["/api/v1/:path*"] };
