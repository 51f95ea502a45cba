import { OAuthError } from "@/lib/oauth/token/errors";

// Every token and revocation response: JSON, never stored by caches (RFC 6749 5.1 and 5.2).

const NO_STORE = { "Cache-Control": "no-store", Pragma: "no-cache" };

export function oauthJson(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return Response.json(body, { status, headers: { ...NO_STORE, ...headers } });
}

/** An empty 200, as RFC 7009 answers a revocation. */
export function oauthEmpty(): Response {
  return new Response(null, { status: 200, headers: NO_STORE });
}

/** OAuthErrors keep their code; anything else is a 500 with nothing internal in the body. */
function oauthErrorResponse(error: unknown): Response {
  if (error instanceof OAuthError) {
    return oauthJson({ error: error.error, error_description: error.message }, error.status, error.headers);
  }
  console.error("[oauth] unexpected error", error instanceof Error ? (error.stack ?? error.message) : error);
  return oauthJson({ error: "server_error", error_description: "The server could not handle the request" }, 500);
}

/** Runs a handler body and turns whatever it throws into an OAuth error response. */
export async function handleOAuth(run: () => Promise<Response>): Promise<Response> {
  try {
    return await run();
  } catch (error) {
    return oauthErrorResponse(error);
  }
}
