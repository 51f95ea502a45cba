import { protectedResourceMetadataResponse } from "@/lib/api/mcp/metadata";

// GET /.well-known/oauth-protected-resource/mcp - the MCP server's protected resource metadata (RFC 9728)

export const dynamic = "force-dynamic";

export const GET = (): Response => protectedResourceMetadataResponse();
