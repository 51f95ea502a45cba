import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { test, type Page } from "@playwright/test";

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
