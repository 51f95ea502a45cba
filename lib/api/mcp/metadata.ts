import type { OAuthProtectedResourceMetadata } from "@modelcontextprotocol/sdk/shared/auth.js";
import { env } from "@/lib/env";
import { mcpResource } from "@/lib/oauth/resource";
import { ALL_SCOPES } from "@/lib/access/scopes";

// RFC 9728 protected resource metadata of the MCP server, served at
// /.well-known/oauth-protected-resource/mcp (the path-inserted form of the resource /mcp) and at
// /.well-known/oauth-protected-resource; the 401 of /mcp points to it (resource_metadata).

export function protectedResourceMetadataUrl(): string {
  return `${env().API_URL}/.well-known/oauth-protected-resource/mcp`;
}

function protectedResourceMetadata(): OAuthProtectedResourceMetadata {
  return {
    resource: mcpResource(),
    // Our authorization server's issuer; its metadata is at /.well-known/oauth-authorization-server.
    authorization_servers: [env().API_URL],
    scopes_supported: [...ALL_SCOPES],
    bearer_methods_supported: ["header"],
    resource_name: "Client Portals MCP server",
    resource_documentation: `${env().APP_URL}/docs/api`,
  };
}

export function protectedResourceMetadataResponse(): Response {
  return Response.json(protectedResourceMetadata(), {
    headers: { "Cache-Control": "public, max-age=3600", "Access-Control-Allow-Origin": "*" },
  });
}
