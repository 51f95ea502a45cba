import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { CallToolRequestSchema, ListToolsRequestSchema, type CallToolResult, type Tool } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import { viewerFromApiAuth } from "@/lib/access/viewer";
import type { ApiAuth } from "@/lib/api/auth";
import { mapError } from "@/lib/api/error-response";
import { log } from "@/lib/log";
import { inputSchemaOf, MCP_TOOLS, outputSchemaOf, runTool, type McpTool } from "./tools";

// One MCP server per request (stateless Streamable HTTP): tools/list and tools/call for the
// admitted token. The low-level Server is used rather than McpServer.registerTool so that a
// tool's arguments reach the operation's own schemas unparsed (the API's exact parse, refinements
// included); the advertised JSON Schemas are generated from those same schemas.

const MCP_SERVER_INFO = { name: "client-portals", version: "1.0.0" };

const jsonSchema = (schema: z.ZodType) => z.toJSONSchema(schema, { io: "input", unrepresentable: "any" }) as Tool["inputSchema"];

/** The tools' descriptions, built once: they depend on nothing but the schemas. */
let described: Tool[] | undefined;
function describeTools(): Tool[] {
  described ??= MCP_TOOLS.map((tool) => ({
    name: tool.name,
    title: tool.title,
    description: `${tool.description} Needs the ${tool.scope} scope.`,
    inputSchema: jsonSchema(inputSchemaOf(tool)),
    outputSchema: z.toJSONSchema(outputSchemaOf(tool), { io: "output", unrepresentable: "any" }) as Tool["outputSchema"],
    annotations: { readOnlyHint: tool.operation.method === "GET", openWorldHint: false },
  }));
  return described;
}

const toolError = (text: string): CallToolResult => ({ isError: true, content: [{ type: "text", text }] });

async function callTool(tool: McpTool, auth: ApiAuth, args: Record<string, unknown>): Promise<CallToolResult> {
  // The token's scopes, as the API checks them before the handler (403 insufficient_scope there).
  if (!auth.scopes.includes(tool.scope)) {
    return toolError(`insufficient_scope: ${tool.name} needs the ${tool.scope} scope, which this token was not granted. Authorize again with ${tool.scope}.`);
  }
  try {
    const structured = await runTool(tool, viewerFromApiAuth(auth), args);
    return { structuredContent: structured, content: [{ type: "text", text: JSON.stringify(structured, null, 2) }] };
  } catch (error) {
    const mapped = mapError(error);
    if (mapped.unexpected) log().error({ err: error, tool: tool.name }, "MCP tool failed");
    return toolError(`${mapped.body.error}: ${mapped.body.error_description}`);
  }
}

export function buildMcpServer(auth: ApiAuth): Server {
  const server = new Server(MCP_SERVER_INFO, {
    capabilities: { tools: {} },
    instructions: "Client Portals: find portals, list their files (metadata only) and tasks, create and complete tasks, invite guests.",
  });
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: describeTools() }));
  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const tool = MCP_TOOLS.find((t) => t.name === request.params.name);
    if (!tool) return toolError(`Unknown tool: ${request.params.name}`);
    return callTool(tool, auth, request.params.arguments ?? {});
  });
  return server;
}
