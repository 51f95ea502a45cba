import { NextResponse, type NextRequest } from "next/server";
import { newNonce } from "./headers";
import { applyResponseHeaders, responseHeaders } from "./response-headers";

// What proxy.ts does for every request: the response headers (response-headers.ts, which the API
// dispatcher sends too), and the CSP (with
// its fresh nonce) on the request, where Next.js reads the nonce for its scripts.

export interface Forward {
  /** This response's CSP nonce, for a response the proxy writes itself (an inline <style>). */
  nonce: string;
  /** NextResponse.next() carrying the request's CSP: for every request that goes on to a page or route. */
  next(): NextResponse;
  /** The request's headers plus its CSP, for a rewrite (`NextResponse.rewrite(url, { request: { headers } })`). */
  requestHeaders(from?: Headers): Headers;
}

export async function withSecurityHeaders(req: NextRequest, route: (forward: Forward) => Response | Promise<Response>): Promise<Response> {
  const nonce = newNonce();
  const headers = responseHeaders(req.nextUrl.pathname, nonce);
  const requestHeaders = (from: Headers = req.headers): Headers => {
    const copy = new Headers(from);
    copy.set("Content-Security-Policy", headers["Content-Security-Policy"] ?? "");
    return copy;
  };
  const response = await route({ nonce, next: () => NextResponse.next({ request: { headers: requestHeaders() } }), requestHeaders });
  return applyResponseHeaders(response, headers);
}
