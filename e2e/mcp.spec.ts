import { createHash, randomBytes } from "node:crypto";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { expect, test, type Page } from "@playwright/test";
import { MemoryOAuthProvider } from "./mcp-oauth-provider";
import { callbackServer, signIn } from "./support";

// The MCP server against the production build, as an assistant connects to it: the SDK's client
// discovers the authorization server from the 401, registers itself, the member approves it on
// the real consent screen in the browser, the client exchanges the code with `resource`, creates a
// task with a tool, and a REST client of the same member sees the task.

test.describe.configure({ mode: "serial" });

const callback = callbackServer();

/** The member approves on the consent screen; returns the code the browser brought back. */
async function approveInBrowser(page: Page, authorizationUrl: URL, expectedText: RegExp): Promise<string> {
  await page.goto(authorizationUrl.toString());
  await expect(page.getByRole("main")).toContainText(expectedText);
  await page.getByRole("button", { name: "Approve" }).click();
  await page.waitForURL((url) => url.href.startsWith(callback.uri));
  const code = new URL(page.url()).searchParams.get("code");
  expect(code).toBeTruthy();
  return code!;
}

test("an MCP client registers, is approved on the consent screen and creates a task the REST API sees", async ({ page, request, baseURL }) => {
  await page.goto("/sign-in");
  await signIn(page, "member@demo.test");
  await expect(page.getByTestId("signed-in-as")).toBeVisible();

  // Discovery starts from the 401's pointer.
  const unauthenticated = await request.post("/mcp", {
    data: { jsonrpc: "2.0", id: 1, method: "tools/list" },
    headers: { Accept: "application/json, text/event-stream" },
  });
  expect(unauthenticated.status()).toBe(401);
  const pointer = /resource_metadata="([^"]+)"/.exec(unauthenticated.headers()["www-authenticate"] ?? "")?.[1];
  expect(pointer).toBeTruthy();
  const metadata = (await (await request.get(pointer!)).json()) as { resource: string };
  expect(metadata.resource).toBe(`${baseURL}/mcp`);

  const provider = new MemoryOAuthProvider(() => callback.uri, "E2E Assistant");
  const url = new URL(metadata.resource);
  const first = new StreamableHTTPClientTransport(url, { authProvider: provider });
  await expect(new Client({ name: "e2e", version: "1.0.0" }).connect(first)).rejects.toThrow(/Unauthorized/);
  expect(provider.info?.client_id).toMatch(/^cpc_/);
  const code = await approveInBrowser(page, provider.authorizationUrl!, /E2E Assistant.*through its MCP server/s);
  await first.finishAuth(code);
  const client = new Client({ name: "e2e", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(url, { authProvider: provider }));

  const found = (await client.callTool({ name: "find_portals", arguments: {} })) as CallToolResult;
  const portals = (found.structuredContent as { portals: { id: string; name: string }[] }).portals;
  expect(portals.length).toBeGreaterThan(0);
  const portalId = portals[0]!.id;
  const title = `Upload the signed engagement letter ${randomBytes(4).toString("hex")}`;
  const created = (await client.callTool({ name: "create_task", arguments: { portalId, title } })) as CallToolResult;
  expect(created.isError, JSON.stringify(created.content)).toBeFalsy();
  const taskId = (created.structuredContent as { task_id: string }).task_id;
  await client.close();

  // A REST client of the same member: registered the same way, authorized without `resource`
  // (the contract's flow), its token for /api/v1.
  const registered = await request.post("/oauth/register", { data: { client_name: "E2E REST client", redirect_uris: [callback.uri], scope: "task:read" } });
  expect(registered.status()).toBe(201);
  const restClientId = ((await registered.json()) as { client_id: string }).client_id;
  const verifier = randomBytes(32).toString("base64url");
  const challenge = createHash("sha256").update(verifier).digest("base64url");
  const authorize = new URL(`${baseURL}/oauth/authorize`);
  for (const [k, v] of Object.entries({
    response_type: "code",
    client_id: restClientId,
    redirect_uri: callback.uri,
    scope: "task:read",
    code_challenge: challenge,
    code_challenge_method: "S256",
  })) {
    authorize.searchParams.set(k, v);
  }
  const restCode = await approveInBrowser(page, authorize, /E2E REST client/);
  const token = await request.post("/oauth/token", {
    form: { grant_type: "authorization_code", code: restCode, client_id: restClientId, redirect_uri: callback.uri, code_verifier: verifier },
  });
  expect(token.status()).toBe(200);
  const restToken = ((await token.json()) as { access_token: string }).access_token;
  const tasks = await request.get(`/api/v1/portals/${portalId}/tasks`, { headers: { Authorization: `Bearer ${restToken}` } });
  expect(tasks.status()).toBe(200);
  expect((await tasks.json()) as unknown[]).toContainEqual(expect.objectContaining({ id: taskId, title, status: "Open" }));

  // Each token only where it was issued for.
  const mcpTokenAtApi = await request.get(`/api/v1/portals/${portalId}/tasks`, { headers: { Authorization: `Bearer ${provider.saved!.access_token}` } });
  expect(mcpTokenAtApi.status()).toBe(401);
  const apiTokenAtMcp = await request.post("/mcp", {
    data: { jsonrpc: "2.0", id: 1, method: "tools/list" },
    headers: { Authorization: `Bearer ${restToken}`, Accept: "application/json, text/event-stream" },
  });
  expect(apiTokenAtMcp.status()).toBe(401);
});
