import { randomBytes } from "node:crypto";
import { expect, test, type Page } from "@playwright/test";
import { callbackServer, openDeveloperPage, seriousAxeFindings, signIn, saveScreenshot } from "./support";

// The OAuth web flow as an outside client sees it: an admin registers a client in API settings, a
// member authorizes it on the consent screen, and the client (a tiny HTTP server on loopback plus
// Playwright's request context) receives the code and exchanges it for tokens.

const ORG_NAME = "Demo Accounting LLP";
const APP_NAME = "Ledger Sync";

test.describe.configure({ mode: "serial" });

const callback = callbackServer();
const client = { clientId: "", secret: "" };
let refreshToken = "";
let accessToken = "";

function authorizePath(params: Record<string, string>): string {
  return `/oauth/authorize?${new URLSearchParams({ response_type: "code", client_id: client.clientId, redirect_uri: callback.uri, ...params })}`;
}

const newState = () => randomBytes(12).toString("base64url");

/** The member signs in and opens the consent screen for portal:read; returns the request's state. */
async function memberOnConsent(page: Page): Promise<string> {
  const state = newState();
  await page.goto("/sign-in");
  await signIn(page, "member@demo.test");
  await expect(page.getByTestId("signed-in-as")).toBeVisible();
  await page.goto(authorizePath({ scope: "portal:read", state }));
  await expect(page.getByRole("heading", { name: `Authorize ${APP_NAME}` })).toBeVisible();
  return state;
}

test("an admin creates a client in API settings and sees its secret once", async ({ page }) => {
  await page.goto("/sign-in");
  await signIn(page, "admin@demo.test");
  await openDeveloperPage(page, "API settings");

  // A redirect URI that is neither https nor loopback: refused, and nothing typed is lost.
  await page.getByLabel("Name", { exact: true }).fill(APP_NAME);
  await page.getByLabel("Redirect URIs").fill("http://client.example/callback");
  await page.getByRole("checkbox", { name: "portal:read" }).check();
  await page.getByRole("checkbox", { name: "task:read" }).check();
  await page.getByRole("button", { name: "Create client" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "Redirect URI on line 1" })).toBeVisible();
  await expect(page.getByLabel("Name", { exact: true })).toHaveValue(APP_NAME);
  await expect(page.getByRole("checkbox", { name: "task:read" })).toBeChecked();
  await expect(page.getByRole("checkbox", { name: "task:write" })).not.toBeChecked();

  await page.getByLabel("Redirect URIs").fill(callback.uri);
  await page.getByRole("button", { name: "Create client" }).click();
  const reveal = page.getByTestId("secret-reveal");
  await expect(reveal).toContainText("won't be shown again");
  // Shown where the user looks: in view, with the focus on it.
  await expect(reveal).toBeInViewport();
  await expect(reveal).toBeFocused();
  client.clientId = (await reveal.getByTestId("new-client-id").textContent()) ?? "";
  client.secret = (await reveal.getByTestId("new-client-secret").textContent()) ?? "";
  expect(client.clientId).toMatch(/^cpc_/);
  expect(client.secret).toMatch(/^cps_/);
  expect(page.url()).not.toContain(client.secret);

  const row = page.getByRole("listitem", { name: APP_NAME });
  await expect(row).toContainText(client.clientId);
  await expect(row).toContainText(callback.uri);
  await expect(row).toContainText("portal:read task:read");
  await expect(row.getByTestId("secret-hint")).toHaveText(`••••${client.secret.slice(-4)}`);

  await page.reload();
  await expect(page.getByRole("listitem", { name: APP_NAME })).toContainText(client.clientId);
  await expect(page.getByTestId("secret-reveal")).toHaveCount(0);
  expect(await page.content()).not.toContain(client.secret);

  // The app's publisher, website and logo for the consent screen: https only, said at the field.
  await row.getByRole("button", { name: `Edit app details of ${APP_NAME}` }).click();
  await row.getByLabel("Publisher").fill("Ledger Co");
  await row.getByLabel("Website").fill("http://ledger.example");
  await row.getByLabel("Logo URL").fill("https://ledger.example/logo.png");
  await row.getByRole("button", { name: "Save details" }).click();
  await expect(row.getByLabel("Website")).toHaveAccessibleDescription("Must be an https URL, e.g. https://example.com");
  await expect(row.getByLabel("Publisher")).toHaveValue("Ledger Co");
  await row.getByLabel("Website").fill("https://ledger.example");
  await row.getByRole("button", { name: "Save details" }).click();
  await expect(row.getByRole("status")).toHaveText("App details saved.");
  await expect(row.getByTestId("client-publisher")).toContainText("Ledger Co");

  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page).toHaveURL(/\/sign-in/);
});

test("a member approves part of the scopes; the client exchanges the code for tokens", async ({ page, request }) => {
  const state = newState();
  await page.goto(authorizePath({ scope: "portal:read task:read", state }));
  await expect(page).toHaveURL(/\/sign-in\?callbackUrl=/);
  await signIn(page, "member@demo.test");

  await expect(page).toHaveURL(/\/oauth\/consent\?/);
  await expect(page.getByRole("heading", { name: `Authorize ${APP_NAME}` })).toBeVisible();
  await expect(page.getByText(ORG_NAME)).toBeVisible();
  await expect(page.getByTestId("redirect-host")).toHaveText(new URL(callback.uri).host);
  await expect(page.getByText("This app cannot download the contents of your files.")).toBeVisible();
  await expect(page.getByTestId("client-publisher")).toHaveText("by Ledger Co · ledger.example");
  await expect(page.getByRole("img", { name: `${APP_NAME} logo` })).toHaveAttribute("src", "https://ledger.example/logo.png");
  // The plain-language meaning leads; the scope's name comes second.
  const portalRead = page.getByRole("checkbox", { name: "List and view portals, list workflow states" });
  await expect(portalRead).toBeChecked();
  await expect(portalRead).toHaveAccessibleDescription("portal:read");

  // At each size, in the light and the dark colour scheme: nothing wider than the screen, a
  // screenshot, and axe (colour contrast included) at the laptop size.
  for (const colorScheme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme });
    for (const [width, height] of [
      [1280, 800],
      [1440, 900],
      [390, 844],
    ] as const) {
      await page.setViewportSize({ width, height });
      expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
      await saveScreenshot(page, `consent-${width}x${height}${colorScheme === "dark" ? "-dark" : ""}`, { fullPage: true });
    }
    await page.setViewportSize({ width: 1280, height: 800 });
    expect(await seriousAxeFindings(page), `axe on the consent screen (${colorScheme})`).toEqual([]);
  }
  await page.emulateMedia({ colorScheme: "light" });

  // The consent screen must not be framed.
  const headers = (await page.request.get(page.url())).headers();
  expect(headers["content-security-policy"]).toContain("frame-ancestors 'none'");
  expect(headers["x-frame-options"]).toBe("DENY");

  await page.getByRole("checkbox", { name: "List tasks" }).uncheck();
  await page.getByRole("button", { name: "Approve" }).click();
  await page.waitForURL((url) => url.href.startsWith(callback.uri));
  const landed = new URL(page.url()).searchParams;
  expect(landed.get("state")).toBe(state);
  const code = landed.get("code");
  expect(code).toBeTruthy();
  expect(callback.received.at(-1)?.get("code")).toBe(code);

  const tokenResponse = await request.post("/oauth/token", {
    form: { grant_type: "authorization_code", code: code!, client_id: client.clientId, client_secret: client.secret, redirect_uri: callback.uri },
  });
  expect(tokenResponse.status()).toBe(200);
  const tokens = (await tokenResponse.json()) as Record<string, unknown>;
  expect(tokens).toMatchObject({ token_type: "Bearer", expires_in: 3600, scope: "portal:read" });
  expect(typeof tokens.access_token).toBe("string");
  expect(typeof tokens.refresh_token).toBe("string");
  accessToken = String(tokens.access_token);
  refreshToken = String(tokens.refresh_token);

  const me = await request.get("/api/v1/me", { headers: { Authorization: `Bearer ${accessToken}` } });
  expect(me.status()).toBe(200);
  expect(await me.json()).toMatchObject({ user_email: "member@demo.test", org_name: ORG_NAME, client_id: client.clientId, scopes: ["portal:read"] });
});

test("the API reference sends a try-it request with a pasted access token", async ({ page }) => {
  await page.goto("/docs/api");
  await expect(page.getByRole("heading", { name: "Client Portals API", exact: true })).toBeVisible();
  const tokenField = page.locator("label", { hasText: "Bearer Token" }).first();
  await tokenField.click();
  await page.keyboard.type(accessToken);
  await saveScreenshot(page, "api-reference-token-1280x800");
  await page
    .getByRole("button", { name: /Test Request/ })
    .first()
    .click();
  const answer = page.waitForResponse((r) => new URL(r.url()).pathname === "/api/v1/me");
  await page.getByRole("button", { name: /^Send/ }).first().click();
  const response = await answer;
  expect(response.request().headers()["authorization"]).toBe(`Bearer ${accessToken}`);
  expect(response.status()).toBe(200);
  await saveScreenshot(page, "api-reference-try-it-1280x800");
  await expect(page.getByText("member@demo.test").first()).toBeVisible();
});

test("a scope the client may not ask for goes back to the client as invalid_scope, before any sign-in", async ({ request }) => {
  const response = await request.get(authorizePath({ scope: "portal:read webhook:manage", state: "s1" }), { maxRedirects: 0 });
  expect(response.status()).toBe(302);
  const location = new URL(response.headers()["location"] ?? "");
  expect(location.href.startsWith(callback.uri)).toBe(true);
  expect(location.searchParams.get("error")).toBe("invalid_scope");
  expect(location.searchParams.get("state")).toBe("s1");
});

test("Deny sends access_denied and the state back to the client", async ({ page }) => {
  const state = await memberOnConsent(page);
  await page.getByRole("button", { name: "Deny" }).click();
  await page.waitForURL((url) => url.href.startsWith(callback.uri));
  const landed = new URL(page.url()).searchParams;
  expect(landed.get("error")).toBe("access_denied");
  expect(landed.get("state")).toBe(state);
  expect(landed.has("code")).toBe(false);
});

test("a captured Approve is answered once, and one posted from another site gets a 403 error page", async ({ page }) => {
  const state = await memberOnConsent(page);

  // Capture the Approve POST exactly as the browser sent it.
  const captured = page.waitForRequest((r) => r.method() === "POST" && new URL(r.url()).pathname === "/oauth/consent");
  await page.getByRole("button", { name: "Approve" }).click();
  await page.waitForURL((url) => url.href.startsWith(callback.uri));
  const approve = await captured;
  const codes = () => callback.received.filter((q) => q.get("state") === state && q.has("code")).length;
  expect(codes()).toBe(1);

  // Replayed with the user's session (the page's cookies): no second code.
  const headers = await approve.allHeaders();
  const replay = (extra: Record<string, string>) =>
    page.request.fetch(approve.url(), { method: "POST", headers: { ...headers, ...extra }, data: approve.postDataBuffer() ?? undefined, maxRedirects: 0 });
  const again = await replay({});
  expect(again.status()).toBeLessThan(500);
  expect(`${again.headers()["x-action-redirect"] ?? ""}${again.headers()["location"] ?? ""}`).toContain("/oauth/error?reason=used_form");
  expect(codes()).toBe(1);
  await page.goto("/oauth/error?reason=used_form");
  await expect(page.getByRole("alert").filter({ hasText: "already answered" })).toBeVisible();

  // Posted from another site: 403 and the OAuth error page, not the framework's 500.
  const foreign = await replay({ origin: "https://evil.example" });
  expect(foreign.status()).toBe(403);
  const html = await foreign.text();
  expect(html).toContain("Authorization failed");
  expect(html).toContain("sent from another website");
  expect(codes()).toBe(1);
});

test("a member has Connected apps but no API settings", async ({ page }) => {
  await page.goto("/sign-in");
  await signIn(page, "member@demo.test");
  await page.getByRole("button", { name: "Developers" }).click();
  const developers = page.locator("#developers-menu");
  await expect(developers.getByRole("link")).toHaveText(["Connected apps"]);
  await page.goto(`${new URL(page.url()).pathname}/settings/api`);
  await expect(page.getByText("Only administrators of this organization can manage API clients.")).toBeVisible();
  await expect(page.getByRole("button", { name: "Create client" })).toHaveCount(0);
});

test("an unknown client or an unregistered redirect URI shows an error page and never leaves the app", async ({ page, request }) => {
  const before = callback.received.length;
  const unknown = `/oauth/authorize?${new URLSearchParams({ response_type: "code", client_id: "cpc_unknown", redirect_uri: callback.uri, state: "x" })}`;
  const response = await request.get(unknown, { maxRedirects: 0 });
  expect(response.status()).toBe(302);
  expect(response.headers()["location"]).toMatch(/^http:\/\/localhost:\d+\/oauth\/error\?/);
  expect(response.headers()["x-frame-options"]).toBe("DENY");

  await page.goto(unknown);
  await expect(page).toHaveURL(/^http:\/\/localhost:\d+\/oauth\/error\?/);
  await expect(page.getByRole("heading", { name: "Authorization failed" })).toBeVisible();
  await expect(page.getByRole("alert").filter({ hasText: "This application is not registered." })).toBeVisible();

  await page.goto(authorizePath({ redirect_uri: "http://127.0.0.1:1/elsewhere", state: "x" }));
  await expect(page).toHaveURL(/\/oauth\/error\?/);
  await expect(page.getByRole("alert").filter({ hasText: "redirect URI is not registered" })).toBeVisible();
  expect(callback.received.length).toBe(before);
});

test("a guest of the organization cannot authorize its client", async ({ page }) => {
  const before = callback.received.length;
  await page.goto(authorizePath({ scope: "portal:read", state: "g" }));
  await signIn(page, "guest@demo.test");
  await expect(page.getByRole("alert").filter({ hasText: `Only members of ${ORG_NAME} can authorize ${APP_NAME}` })).toBeVisible();
  await expect(page.getByRole("button", { name: "Approve" })).toHaveCount(0);
  expect(callback.received.length).toBe(before);
});

test("rotating the secret shows the new one once and the old one stops working", async ({ page, request }) => {
  await page.goto("/sign-in");
  await signIn(page, "admin@demo.test");
  await openDeveloperPage(page, "API settings");
  const row = page.getByRole("listitem", { name: APP_NAME });
  await row.getByRole("button", { name: "Rotate secret" }).click();
  await expect(row).toContainText("stops working at once");
  await row.getByRole("button", { name: "Rotate now" }).click();
  const secret = (await row.getByTestId("new-client-secret").textContent()) ?? "";
  expect(secret).toMatch(/^cps_/);
  expect(secret).not.toBe(client.secret);
  await expect(row.getByTestId("secret-hint")).toHaveText(`••••${secret.slice(-4)}`);

  const refresh = (clientSecret: string) =>
    request.post("/oauth/token", {
      form: { grant_type: "refresh_token", refresh_token: refreshToken, client_id: client.clientId, client_secret: clientSecret },
    });
  const old = await refresh(client.secret);
  expect(old.status()).toBe(401);
  expect(await old.json()).toMatchObject({ error: "invalid_client" });
  const fresh = await refresh(secret);
  expect(fresh.status()).toBe(200);
  const tokens = (await fresh.json()) as Record<string, unknown>;
  accessToken = String(tokens.access_token);
  client.secret = secret;

  await page.reload();
  expect(await page.content()).not.toContain(secret);
});

test("the member revokes the app under Connected apps and its token stops working", async ({ page, request }) => {
  await page.goto("/sign-in");
  await signIn(page, "member@demo.test");
  await openDeveloperPage(page, "Connected apps");
  const app = page.getByRole("listitem", { name: APP_NAME });
  await expect(app.getByTestId("grant-scopes")).toHaveText("portal:read");
  await app.getByRole("button", { name: `Revoke ${APP_NAME}` }).click();
  await expect(page.getByRole("listitem", { name: APP_NAME })).toHaveCount(0);
  // Other specs' apps (the MCP client, the REST client) may share the member's list; after a
  // reload this one is still gone.
  await page.reload();
  await expect(page.getByRole("heading", { name: "Connected apps" })).toBeVisible();
  await expect(page.getByRole("listitem", { name: APP_NAME })).toHaveCount(0);

  const me = await request.get("/api/v1/me", { headers: { Authorization: `Bearer ${accessToken}` } });
  expect(me.status()).toBe(401);
});

test("deleting the client makes its authorize URL an error page", async ({ page }) => {
  await page.goto("/sign-in");
  await signIn(page, "admin@demo.test");
  await openDeveloperPage(page, "API settings");
  const row = page.getByRole("listitem", { name: APP_NAME });
  await row.getByRole("button", { name: "Delete", exact: true }).click();
  await row.getByRole("button", { name: "Delete client" }).click();
  await expect(page.getByRole("listitem", { name: APP_NAME })).toHaveCount(0);
  // Other specs' clients may share the list; after a reload this one is still gone.
  await page.reload();
  await expect(page.getByRole("heading", { name: "API settings" })).toBeVisible();
  await expect(page.getByRole("listitem", { name: APP_NAME })).toHaveCount(0);

  await page.goto(authorizePath({ scope: "portal:read", state: "d" }));
  await expect(page.getByRole("alert").filter({ hasText: "This application is not registered." })).toBeVisible();
});
