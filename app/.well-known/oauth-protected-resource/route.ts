import { protectedResourceMetadataResponse } from "@/lib/api/mcp/metadata";

// GET /.well-known/oauth-protected-resource - the same metadata at the root (the MCP spec's fallback)

export const dynamic = "force-dynamic";

export const GET = (): Response => protectedResourceMetadataResponse();
