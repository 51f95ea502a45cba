import { deployment, type Deployment } from "./deployment";
import { securityHeaders } from "./headers";

// What every response gets on its way out, whichever path served it: proxy.ts for what Next.js
// serves (pages, static files, the API's error paths), the API dispatcher (lib/api/dispatch.ts)
// for the route handlers it calls itself. A header the API's responses need belongs here, so
// both paths send it.

/**
 * The headers a response to `pathname` gets. `nonce` is the page's CSP nonce; data routes (the
 * API, the OAuth endpoints) get a policy without one, so for them the result depends only on the
 * path and the deployment, and the dispatcher works it out once per route.
 */
export function responseHeaders(pathname: string, nonce: string, deploymentOf: () => Deployment = deployment): Record<string, string> {
  return securityHeaders({ pathname, nonce, ...deploymentOf() });
}

/** Sets `headers` on `response` (replacing what the handler set under the same names). */
export function applyResponseHeaders(response: Response, headers: Record<string, string>): Response {
  for (const [name, value] of Object.entries(headers)) response.headers.set(name, value);
  return response;
}
