import { NextResponse, type NextRequest } from "next/server";
import { deployment } from "./deployment";
import { newNonce, securityHeaders } from "./headers";

// What proxy.ts does for every request: the security headers on the response, and the CSP (with
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
  const headers = securityHeaders({ pathname: req.nextUrl.pathname, nonce, ...deployment() });
  const requestHeaders = (from: Headers = req.headers): Headers => {
    const copy = new Headers(from);
    copy.set("Content-Security-Policy", headers["Content-Security-Policy"] ?? "");
    return copy;
  };
  const response = await route({ nonce, next: () => NextResponse.next({ request: { headers: requestHeaders() } }), requestHeaders });
  for (const [name, value] of Object.entries(headers)) response.headers.set(name, value);
  return response;
}
