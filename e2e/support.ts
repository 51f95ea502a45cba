import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { randomBytes } from "node:crypto";
import AxeBuilder from "@axe-core/playwright";
import { expect, test, type APIRequestContext, type Browser, type Page } from "@playwright/test";

// What several specs need: the demo sign-in and an OAuth client's callback server on loopback.

export const DEMO_PASSWORD = "demo-password-1";

/** Signs in on the current /sign-in page with the demo password. */
export async function signIn(page: Page, email: string): Promise<void> {
  await page.getByLabel("Email", { exact: true }).fill(email);
  await page.getByLabel("Password").fill(DEMO_PASSWORD);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
}

/**
 * `page.goto` that returns once the streamed parts of the page are in place. React reveals a
 * Suspense boundary's streamed content from a hidden `<div hidden id="S:n">` after the document's
 * last chunk, batched to the next animation frame; until then the content can be in the page twice
 * (the hidden copy and the rendered one), and a strict locator would match both.
 */
export async function gotoStreamed(page: Page, url: string): Promise<Awaited<ReturnType<Page["goto"]>>> {
  const response = await page.goto(url);
  await expect(page.locator('div[hidden][id^="S:"]')).toHaveCount(0);
  return response;
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
 * What an outside client does before its first API call: the admin registers it in API settings
 * (the secret is read from the one-time reveal), approves the consent screen for `scopes`, and the
 * client exchanges the code at /oauth/token. Ends signed in as the admin.
 */
export async function authorizeNewClient(
  page: Page,
  request: APIRequestContext,
  { name, redirectUri, scopes }: { name: string; redirectUri: string; scopes: string[] },
): Promise<{ clientId: string; clientSecret: string; accessToken: string }> {
  await page.goto("/sign-in");
  await signIn(page, "admin@demo.test");
  await page.getByRole("link", { name: "API settings" }).click();
  await page.getByLabel("Name", { exact: true }).fill(name);
  await page.getByLabel("Redirect URIs").fill(redirectUri);
  for (const scope of scopes) await page.getByRole("checkbox", { name: scope }).check();
  await page.getByRole("button", { name: "Create client" }).click();
  const reveal = page.getByTestId("secret-reveal");
  const clientId = (await reveal.getByTestId("new-client-id").textContent()) ?? "";
  const clientSecret = (await reveal.getByTestId("new-client-secret").textContent()) ?? "";
  expect(clientId).toMatch(/^cpc_/);

  const state = randomBytes(12).toString("base64url");
  await page.goto(
    `/oauth/authorize?${new URLSearchParams({ response_type: "code", client_id: clientId, redirect_uri: redirectUri, scope: scopes.join(" "), state })}`,
  );
  await page.getByRole("button", { name: "Approve" }).click();
  await page.waitForURL((url) => url.href.startsWith(redirectUri));
  const code = new URL(page.url()).searchParams.get("code");
  expect(code).toBeTruthy();
  const tokenResponse = await request.post("/oauth/token", {
    form: { grant_type: "authorization_code", code: code!, client_id: clientId, client_secret: clientSecret, redirect_uri: redirectUri },
  });
  expect(tokenResponse.status()).toBe(200);
  return { clientId, clientSecret, accessToken: String(((await tokenResponse.json()) as Record<string, unknown>).access_token) };
}

/** No serious or critical axe violation on the page as it is, each named with its elements. */
export async function expectAxeClean(page: Page, name: string): Promise<void> {
  const { violations } = await new AxeBuilder({ page }).analyze();
  const serious = violations.filter((v) => v.impact === "serious" || v.impact === "critical");
  expect(
    serious.map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`),
    `axe on ${name}`,
  ).toEqual([]);
}

/** A new browser context of `size`, signed in as `email` with the demo password, at `path`. */
export async function signedInAt(browser: Browser, email: string, size: { width: number; height: number }, path: string): Promise<Page> {
  const context = await browser.newContext({ viewport: size });
  const page = await context.newPage();
  await page.goto(`/sign-in?callbackUrl=${encodeURIComponent(path)}`);
  await signIn(page, email);
  await page.waitForURL((url) => !url.pathname.startsWith("/sign-in"));
  return page;
}

/** At `size`: a title, nothing wider than the screen, a full-page screenshot `test-results/screenshots/<file>-<w>x<h>.png`, no serious or critical axe violation. */
export async function checkScreen(page: Page, file: string, size: { width: number; height: number }): Promise<void> {
  await page.setViewportSize(size);
  await page.waitForLoadState("networkidle");
  // Next streams a dynamic page's metadata: the title arrives after the body after a refresh.
  await expect(page).toHaveTitle(/\S/);
  const { scrollWidth, innerWidth } = await page.evaluate(() => ({ scrollWidth: document.documentElement.scrollWidth, innerWidth: window.innerWidth }));
  expect(scrollWidth, `${file} is wider than a ${innerWidth}px screen`).toBeLessThanOrEqual(innerWidth);
  await page.screenshot({ path: `test-results/screenshots/${file}-${size.width}x${size.height}.png`, fullPage: true });
  await expectAxeClean(page, file);
}
