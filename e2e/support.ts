import { randomBytes } from "node:crypto";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { test, type APIRequestContext, type Page } from "@playwright/test";

// What several specs need: the demo sign-in and an OAuth client's callback server on loopback.

export const DEMO_PASSWORD = "demo-password-1";

/** Signs in on the current /sign-in page with the demo password. */
export async function signIn(page: Page, email: string): Promise<void> {
  await page.getByLabel("Email", { exact: true }).fill(email);
  await page.getByLabel("Password").fill(DEMO_PASSWORD);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
}

/**
 * A client's redirect URI: an HTTP server on 127.0.0.1, started before the file's tests and closed
 * after them, recording the query of every /callback it receives.
 */
export function callbackServer(): { uri: string; received: URLSearchParams[] } {
  const callback = { uri: "", received: [] as URLSearchParams[] };
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    if (url.pathname === "/callback") callback.received.push(url.searchParams);
    res.writeHead(200, { "Content-Type": "text/html" }).end("<h1>Callback received</h1>");
  });
  test.beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    callback.uri = `http://127.0.0.1:${(server.address() as AddressInfo).port}/callback`;
  });
  test.afterAll(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });
  return callback;
}

/**
 * An API client as an outside integration gets one: the admin registers it in API settings and
 * approves it on the consent screen; the code from the callback is exchanged for an access token.
 * Returns the Authorization header.
 */
export async function authorizeApiClient(
  page: Page,
  request: APIRequestContext,
  callbackUri: string,
  options: { name: string; scopes: string[] },
): Promise<{ Authorization: string }> {
  await page.goto("/sign-in");
  await signIn(page, "admin@demo.test");
  await page.getByRole("link", { name: "API settings" }).click();
  await page.getByLabel("Name", { exact: true }).fill(options.name);
  await page.getByLabel("Redirect URIs").fill(callbackUri);
  for (const scope of options.scopes) await page.getByRole("checkbox", { name: scope }).check();
  await page.getByRole("button", { name: "Create client" }).click();
  const reveal = page.getByTestId("secret-reveal");
  const clientId = (await reveal.getByTestId("new-client-id").textContent()) ?? "";
  const clientSecret = (await reveal.getByTestId("new-client-secret").textContent()) ?? "";
  const state = randomBytes(12).toString("base64url");
  await page.goto(`/oauth/authorize?${new URLSearchParams({ response_type: "code", client_id: clientId, redirect_uri: callbackUri, scope: options.scopes.join(" "), state })}`);
  await page.getByRole("button", { name: "Approve" }).click();
  await page.waitForURL((url) => url.href.startsWith(callbackUri));
  const code = new URL(page.url()).searchParams.get("code") ?? "";
  const token = await request.post("/oauth/token", {
    form: { grant_type: "authorization_code", code, client_id: clientId, client_secret: clientSecret, redirect_uri: callbackUri },
  });
  if (token.status() !== 200) throw new Error(`token exchange failed: ${token.status()} ${await token.text()}`);
  return { Authorization: `Bearer ${String(((await token.json()) as Record<string, unknown>).access_token)}` };
}
