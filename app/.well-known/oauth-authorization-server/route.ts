import { authorizationServerMetadata } from "@/lib/oauth/metadata";

// GET /.well-known/oauth-authorization-server - authorization server metadata (RFC 8414)

// Built from API_URL and APP_URL at run time, not at build time.
export const dynamic = "force-dynamic";

export function GET(): Response {
  return Response.json(authorizationServerMetadata(), {
    headers: { "Cache-Control": "public, max-age=3600", "Access-Control-Allow-Origin": "*" },
  });
}
