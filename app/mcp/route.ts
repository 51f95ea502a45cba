import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { admitMcp } from "@/lib/api/mcp/auth";
import { buildMcpServer } from "@/lib/api/mcp/server";

// POST /mcp - the MCP server (Streamable HTTP, stateless, JSON responses); docs/mcp.md.

export const dynamic = "force-dynamic";

export async function POST(req: Request): Promise<Response> {
  const admission = await admitMcp(req);
  if (!admission.ok) return admission.response;
  const server = buildMcpServer(admission.admitted.auth);
  // Stateless: no session id, one server and transport per request, closed after it.
  const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  await server.connect(transport);
  try {
    const response = await transport.handleRequest(req);
    for (const [name, value] of Object.entries(admission.headers)) response.headers.set(name, value);
    return response;
  } finally {
    await server.close();
  }
}

/** No server-initiated stream and no sessions: GET and DELETE are 405 (Streamable HTTP allows it). */
function notAllowed(): Response {
  return Response.json({ error: "method_not_allowed", error_description: "The MCP endpoint takes POST only" }, { status: 405, headers: { Allow: "POST" } });
}

export const GET = notAllowed;
export const DELETE = notAllowed;
