import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { resetEnvForTests } from "@/lib/env";
import { checkAuthorizeRequest, type AuthorizeParams } from "@/lib/oauth/authorize";
import { authorizeParamsFrom, createConsentToken, decideConsent } from "@/lib/oauth/consent";
import { createApiContext, createTestOrg, createTestPortal, createTestUser } from "@/lib/test-support/fixtures";
import { GET as authServerMetadataGET } from "@/app/.well-known/oauth-authorization-server/route";
import { GET as resourceMetadataGET } from "@/app/.well-known/oauth-protected-resource/mcp/route";
import { GET as rootResourceMetadataGET } from "@/app/.well-known/oauth-protected-resource/route";
import { GET as jwksGET } from "@/app/.well-known/jwks.json/route";
import { GET as tasksGET } from "@/app/api/v1/portals/[portalId]/tasks/route";
import { POST as mcpPOST } from "@/app/mcp/route";
import { POST as registerPOST } from "@/app/oauth/register/route";
import { POST as tokenPOST } from "@/app/oauth/token/route";
import { MemoryOAuthProvider } from "@/e2e/mcp-oauth-provider";
import { startLoopbackServer, type LoopbackServer } from "@/test/mcp/loopback-server";

// The MCP server through the SDK's own client (Client + StreamableHTTPClientTransport + its OAuth
// provider interface), over real HTTP on loopback: discovery from the 401, dynamic registration,
// authorize and the consent screen's decision (as lib/oauth/consent.int.test.ts drives it, for a
// signed-in member), the token request with `resource`, tool calls, and the REST API's view.

const PORT = 4010;
const REDIRECT_URI = "http://127.0.0.1:4011/callback";
let server: LoopbackServer;
let saved: { API_URL?: string; APP_URL?: string };

beforeAll(async () => {
  // The issuer, the audience and the resource are all on the loopback server's address.
  saved = { API_URL: process.env.API_URL, APP_URL: process.env.APP_URL };
  process.env.API_URL = `http://127.0.0.1:${PORT}`;
  process.env.APP_URL = `http://127.0.0.1:${PORT}`;
  resetEnvForTests();
  server = await startLoopbackServer(PORT, [
    { method: "GET", path: "/.well-known/oauth-protected-resource/mcp", handler: resourceMetadataGET },
    { method: "GET", path: "/.well-known/oauth-protected-resource", handler: rootResourceMetadataGET },
    { method: "GET", path: "/.well-known/oauth-authorization-server", handler: authServerMetadataGET },
    { method: "GET", path: "/.well-known/jwks.json", handler: jwksGET },
    { method: "POST", path: "/oauth/register", handler: registerPOST },
    { method: "POST", path: "/oauth/token", handler: tokenPOST },
    { method: "POST", path: "/mcp", handler: mcpPOST },
    { method: "GET", path: "/api/v1/portals/:portalId/tasks", handler: (req, ctx) => tasksGET(req, ctx) },
  ]);
});

afterAll(async () => {
  await server.close();
  Object.assign(process.env, saved);
  resetEnvForTests();
});

/** What the consent screen does when `userId` approves `scopes` (all requested ones by default). */
async function approve(authorizationUrl: URL, userId: string, scopes?: string[]): Promise<string> {
  const params: AuthorizeParams = authorizeParamsFrom(authorizationUrl.searchParams);
  const check = await checkAuthorizeRequest(params);
  if (check.kind !== "ok") throw new Error(`authorize refused: ${JSON.stringify(check)}`);
  const token = createConsentToken({ userId, request: check.request });
  const target = new URL(await decideConsent({ userId, params, token, approve: true, checkedScopes: scopes ?? check.request.scopes }));
  const code = target.searchParams.get("code");
  if (!code) throw new Error(`no code: ${target.toString()}`);
  return code;
}

/** The whole flow with the SDK: 401, discovery, registration, consent, token; a connected client. */
async function connectThroughOAuth(userId: string, scopes?: string[]) {
  const provider = new MemoryOAuthProvider(() => REDIRECT_URI, "Test MCP client");
  const url = new URL(`${server.url}/mcp`);
  const first = new StreamableHTTPClientTransport(url, { authProvider: provider });
  await expect(new Client({ name: "test", version: "1.0.0" }).connect(first)).rejects.toThrow(/Unauthorized/);
  expect(provider.authorizationUrl).toBeDefined();
  const code = await approve(provider.authorizationUrl!, userId, scopes);
  await first.finishAuth(code);
  const client = new Client({ name: "test", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(url, { authProvider: provider }));
  return { client, provider };
}

const structured = (result: unknown) => (result as CallToolResult).structuredContent as Record<string, unknown>;
const textOf = (result: unknown) => ((result as CallToolResult).content[0] as { text: string }).text;

describe("MCP server with OAuth", () => {
  it("goes from registration through consent to a task created by a tool and seen through the REST API", async () => {
    const org = await createTestOrg();
    const member = await createTestUser({ orgId: org.id, role: "member" });
    const portal = await createTestPortal({ orgId: org.id, name: "Acme Ltd" });

    const { client, provider } = await connectThroughOAuth(member.id);

    // Registration: a public client, now of the approving member's organization.
    const registered = await db.oAuthClient.findUniqueOrThrow({ where: { clientId: provider.info!.client_id } });
    expect(registered).toMatchObject({ orgId: org.id, isPublic: true, name: "Test MCP client", redirectUris: [REDIRECT_URI] });
    // The authorize request carried the resource, and PKCE.
    expect(provider.authorizationUrl!.searchParams.get("resource")).toBe(`${server.url}/mcp`);
    expect(provider.authorizationUrl!.searchParams.get("code_challenge_method")).toBe("S256");
    // The token is for the MCP server: its audience, and the grant's resource.
    const claims = JSON.parse(Buffer.from(provider.saved!.access_token.split(".")[1]!, "base64url").toString()) as Record<string, unknown>;
    expect(claims).toMatchObject({ aud: `${server.url}/mcp`, org_id: org.id, sub: member.id });
    const grant = await db.oAuthGrant.findFirstOrThrow({ where: { clientId: registered.id } });
    expect(grant.resource).toBe(`${server.url}/mcp`);
    // Discovery went through the 401's pointer, the metadata and registration over HTTP.
    const paths = server.received.map((r) => `${r.method} ${r.path} ${r.status}`);
    expect(paths).toEqual(
      expect.arrayContaining([
        "POST /mcp 401",
        "GET /.well-known/oauth-protected-resource/mcp 200",
        "GET /.well-known/oauth-authorization-server 200",
        "POST /oauth/register 201",
        "POST /oauth/token 200",
      ]),
    );

    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual([
      "complete_task",
      "create_task",
      "find_portals",
      "get_portal",
      "invite_guests",
      "list_files",
      "list_tasks",
    ]);
    expect(tools.find((t) => t.name === "create_task")?.inputSchema.required).toEqual(expect.arrayContaining(["portalId", "title"]));

    const found = await client.callTool({ name: "find_portals", arguments: {} });
    expect((structured(found)["portals"] as { id: string; name: string }[]).map((p) => p.id)).toEqual([portal.id]);

    const created = await client.callTool({
      name: "create_task",
      arguments: { portalId: portal.id, title: "Send the 2025 bank statements", due_date: "2026-12-31T17:00:00Z" },
    });
    expect((created as CallToolResult).isError, textOf(created)).toBeFalsy();
    const taskId = structured(created)["task_id"] as string;
    expect(JSON.parse(textOf(created))).toEqual({ task_id: taskId });

    // The same task through the REST API, with an API token of the same organization.
    const api = await db.oAuthClient.create({
      data: { orgId: org.id, name: "REST", clientId: `cpc_rest_${taskId}`, secretHash: "x", secretHint: "x", redirectUris: [], allowedScopes: ["task:read"] },
    });
    const apiGrant = await db.oAuthGrant.create({ data: { orgId: org.id, clientId: api.id, userId: member.id, scopes: ["task:read"] } });
    const { issueAccessToken } = await import("@/lib/oauth/access-token");
    const { token: apiToken } = await issueAccessToken({
      grantId: apiGrant.id,
      userId: member.id,
      orgId: org.id,
      clientId: api.clientId,
      scopes: ["task:read"],
    });
    const rest = await fetch(`${server.url}/api/v1/portals/${portal.id}/tasks`, { headers: { Authorization: `Bearer ${apiToken}` } });
    expect(rest.status).toBe(200);
    const tasks = (await rest.json()) as { id: string; title: string; status: string }[];
    expect(tasks).toEqual([expect.objectContaining({ id: taskId, title: "Send the 2025 bank statements", status: "Open" })]);

    // As the API does: the audit row names the user through the MCP client, and the event is recorded.
    const audit = await db.auditLog.findFirstOrThrow({ where: { orgId: org.id, targetId: taskId } });
    expect(audit).toMatchObject({ action: "task.created", actorUserId: member.id, oauthClientId: registered.id });
    expect(await db.event.count({ where: { orgId: org.id, type: "task.created" } })).toBe(1);

    const listed = await client.callTool({ name: "list_tasks", arguments: { portalId: portal.id } });
    expect((structured(listed)["tasks"] as { id: string }[]).map((t) => t.id)).toEqual([taskId]);
    const done = await client.callTool({ name: "complete_task", arguments: { taskId } });
    expect(structured(done)).toEqual({ success: true, task_id: taskId });
    expect((await db.task.findUniqueOrThrow({ where: { id: taskId } })).status).toBe("Done");

    // Bad input gets the API's message, naming the field.
    const bad = await client.callTool({ name: "create_task", arguments: { portalId: portal.id } });
    expect((bad as CallToolResult).isError).toBe(true);
    expect(textOf(bad)).toMatch(/^invalid_request: .*title/);

    // The MCP token is not an API token: the REST API refuses its audience.
    const crossAudience = await fetch(`${server.url}/api/v1/portals/${portal.id}/tasks`, {
      headers: { Authorization: `Bearer ${provider.saved!.access_token}` },
    });
    expect(crossAudience.status).toBe(401);
    await client.close();
  });

  it("answers 401 with the resource metadata pointer without a token, and to an API token", async () => {
    const noToken = await fetch(`${server.url}/mcp`, {
      method: "POST",
      headers: { "Content-Type": "application/json", Accept: "application/json, text/event-stream" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
    });
    expect(noToken.status).toBe(401);
    const pointer = `resource_metadata="${server.url}/.well-known/oauth-protected-resource/mcp"`;
    expect(noToken.headers.get("www-authenticate")).toContain(pointer);
    expect(await noToken.json()).toMatchObject({ error: "invalid_token" });

    const { token } = await createApiContext();
    const apiToken = await fetch(`${server.url}/mcp`, {
      method: "POST",
      headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json", Accept: "application/json, text/event-stream" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
    });
    expect(apiToken.status).toBe(401);
    expect(apiToken.headers.get("www-authenticate")).toMatch(/error="invalid_token".*resource_metadata=/);

    const metadata = (await (await fetch(`${server.url}/.well-known/oauth-protected-resource/mcp`)).json()) as Record<string, unknown>;
    expect(metadata).toMatchObject({ resource: `${server.url}/mcp`, authorization_servers: [server.url] });
    const as = (await (await fetch(`${server.url}/.well-known/oauth-authorization-server`)).json()) as Record<string, unknown>;
    expect(as["registration_endpoint"]).toBe(`${server.url}/oauth/register`);
  });

  it("gives a clear tool error to a token without the tool's scope", async () => {
    const org = await createTestOrg();
    const member = await createTestUser({ orgId: org.id, role: "member" });
    const portal = await createTestPortal({ orgId: org.id });
    const { client } = await connectThroughOAuth(member.id, ["portal:read", "task:read"]);
    const result = await client.callTool({ name: "create_task", arguments: { portalId: portal.id, title: "Not allowed" } });
    expect((result as CallToolResult).isError).toBe(true);
    expect(textOf(result)).toMatch(/insufficient_scope: create_task needs the task:write scope/);
    expect(await db.task.count({ where: { portalId: portal.id } })).toBe(0);
    // What it was granted works.
    const read = await client.callTool({ name: "get_portal", arguments: { portalId: portal.id } });
    expect(structured(read)["id"]).toBe(portal.id);
    await client.close();
  });

  it("refreshes a public client's token for the same resource, and closes /mcp when the organization loses API access", async () => {
    const org = await createTestOrg();
    const member = await createTestUser({ orgId: org.id, role: "member" });
    const { client, provider } = await connectThroughOAuth(member.id);
    await client.close();
    const refreshed = await fetch(`${server.url}/oauth/token`, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ grant_type: "refresh_token", refresh_token: provider.saved!.refresh_token!, client_id: provider.info!.client_id }),
    });
    expect(refreshed.status).toBe(200);
    const tokens = (await refreshed.json()) as { access_token: string; refresh_token: string };
    const claims = JSON.parse(Buffer.from(tokens.access_token.split(".")[1]!, "base64url").toString()) as Record<string, unknown>;
    expect(claims["aud"]).toBe(`${server.url}/mcp`);
    expect(tokens.refresh_token).not.toBe(provider.saved!.refresh_token);

    // D8, as the API applies it: checked on every request.
    await db.organization.update({ where: { id: org.id }, data: { apiEnabled: false } });
    const closed = await fetch(`${server.url}/mcp`, {
      method: "POST",
      headers: { Authorization: `Bearer ${tokens.access_token}`, "Content-Type": "application/json", Accept: "application/json, text/event-stream" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
    });
    expect(closed.status).toBe(403);
    expect(await closed.json()).toMatchObject({ error: "api_access_disabled" });
    expect(closed.headers.get("x-ratelimit-limit")).toBeTruthy();
  });

  it("cannot see another organization's portal", async () => {
    const org = await createTestOrg();
    const member = await createTestUser({ orgId: org.id, role: "member" });
    const other = await createTestOrg();
    const foreign = await createTestPortal({ orgId: other.id, name: "Someone else's" });
    const { client } = await connectThroughOAuth(member.id);
    for (const [name, args] of [
      ["get_portal", { portalId: foreign.id }],
      ["list_tasks", { portalId: foreign.id }],
      ["list_files", { portalId: foreign.id }],
      ["create_task", { portalId: foreign.id, title: "Sneaky" }],
    ] as const) {
      const result = await client.callTool({ name, arguments: args });
      expect((result as CallToolResult).isError, name).toBe(true);
      expect(textOf(result), name).toMatch(/^not_found: /);
    }
    const malformed = await client.callTool({ name: "get_portal", arguments: { portalId: "not-an-id" } });
    expect(textOf(malformed)).toMatch(/^not_found: /);
    const found = await client.callTool({ name: "find_portals", arguments: {} });
    expect(structured(found)["portals"]).toEqual([]);
    expect(await db.task.count({ where: { portalId: foreign.id } })).toBe(0);
    await client.close();
  });

  it("registers only what the client rules allow", async () => {
    const post = (body: unknown) =>
      fetch(`${server.url}/oauth/register`, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
    const plainHttp = await post({ redirect_uris: ["http://client.example/callback"] });
    expect(plainHttp.status).toBe(400);
    expect(await plainHttp.json()).toMatchObject({ error: "invalid_redirect_uri" });
    const confidential = await post({ redirect_uris: ["https://client.example/cb"], token_endpoint_auth_method: "client_secret_basic" });
    expect(await confidential.json()).toMatchObject({ error: "invalid_client_metadata" });
    const unknownScope = await post({ redirect_uris: ["https://client.example/cb"], scope: "portal:read everything" });
    expect(await unknownScope.json()).toMatchObject({ error: "invalid_client_metadata", error_description: "Unknown scope: everything" });
    const ok = await post({ redirect_uris: ["https://client.example/cb"], client_name: "Narrow", scope: "portal:read" });
    expect(ok.status).toBe(201);
    const body = (await ok.json()) as Record<string, unknown>;
    expect(body).toMatchObject({
      client_name: "Narrow",
      token_endpoint_auth_method: "none",
      scope: "portal:read",
      redirect_uris: ["https://client.example/cb"],
    });
    expect(body).not.toHaveProperty("client_secret");
    // Unapproved, it belongs to no organization and cannot get tokens.
    const row = await db.oAuthClient.findUniqueOrThrow({ where: { clientId: body["client_id"] as string } });
    expect(row.orgId).toBeNull();
  });
});
