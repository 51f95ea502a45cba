import { expect, test, type APIResponse, type Page } from "@playwright/test";
import { signIn } from "./support";

// The security headers on the production build's real responses (lib/security/headers.ts, set by
// proxy.ts), and the main pages rendering under that policy without a single CSP violation.

const policy = (response: APIResponse): Map<string, string> =>
  new Map(
    (response.headers()["content-security-policy"] ?? "")
      .split(";")
      .map((d) => d.trim())
      .filter(Boolean)
      .map((d) => [d.split(" ")[0] ?? "", d.slice(d.indexOf(" ") + 1)]),
  );

function expectCommonHeaders(response: APIResponse): void {
  const h = response.headers();
  expect(h["x-content-type-options"]).toBe("nosniff");
  expect(h["x-frame-options"]).toBe("DENY");
  expect(h["referrer-policy"]).toBe("strict-origin-when-cross-origin");
  expect(h["permissions-policy"]).toContain("camera=()");
  // Served over plain http here (APP_URL http://localhost): no HSTS, which browsers ignore on http anyway.
  expect(h["strict-transport-security"]).toBeUndefined();
  expect(policy(response).get("frame-ancestors")).toBe("'none'");
}

test("pages: a strict CSP with a fresh nonce per response that Next.js puts on its scripts", async ({ request }) => {
  const first = await request.get("/sign-in");
  const second = await request.get("/sign-in");
  expect(first.status()).toBe(200);
  expectCommonHeaders(first);
  const csp = policy(first);
  const nonce = /'nonce-([A-Za-z0-9+/=]+)'/.exec(csp.get("script-src") ?? "")?.[1];
  expect(nonce, "script-src has a nonce").toBeTruthy();
  expect(csp.get("script-src")).toBe(`'self' 'nonce-${nonce}' 'strict-dynamic'`);
  expect(csp.get("object-src")).toBe("'none'");
  expect(csp.get("base-uri")).toBe("'self'");
  expect(csp.get("form-action")).toBe("'self'");
  expect(csp.get("script-src")).not.toContain("unsafe-eval");
  expect(csp.get("script-src")).not.toContain("unsafe-inline");
  expect(policy(second).get("script-src")).not.toContain(nonce);

  // Every script element of the page carries this response's nonce; none carries another.
  const html = await first.text();
  const scripts = html.match(/<script\b[^>]*>/g) ?? [];
  expect(scripts.length).toBeGreaterThan(0);
  for (const tag of scripts) expect(tag).toContain(`nonce="${nonce}"`);
});

test("JSON routes: a policy that loads nothing, and the same framing, sniffing and referrer headers", async ({ request }) => {
  for (const path of ["/api/v1/me", "/api/v1/openapi.json", "/api/v1/no-such-endpoint", "/.well-known/oauth-authorization-server", "/healthz"]) {
    const response = await request.get(path);
    expect(response.headers()["content-type"], path).toContain("application/json");
    expectCommonHeaders(response);
    expect(response.headers()["content-security-policy"], path).toBe("default-src 'none'; frame-ancestors 'none'");
  }
  const token = await request.post("/oauth/token", { form: { grant_type: "client_credentials" } });
  expect(token.status()).toBe(401);
  expectCommonHeaders(token);
  expect(token.headers()["content-security-policy"]).toBe("default-src 'none'; frame-ancestors 'none'");
  // The API's own 405 (answered by proxy.ts itself) too.
  const notAllowed = await request.delete("/api/v1/portals");
  expect(notAllowed.status()).toBe(405);
  expectCommonHeaders(notAllowed);
});

test("Next.js build files get nosniff", async ({ request }) => {
  const html = await (await request.get("/sign-in")).text();
  const src = /<script[^>]+src="(\/_next\/static\/[^"]+\.js)"/.exec(html)?.[1];
  expect(src).toBeTruthy();
  const script = await request.get(src!);
  expect(script.status()).toBe(200);
  expect(script.headers()["x-content-type-options"]).toBe("nosniff");
  expect(script.headers()["content-type"]).toContain("javascript");
});

/** Collects CSP violations the page reports, from the console and from securitypolicyviolation events. */
async function watchViolations(page: Page): Promise<string[]> {
  const violations: string[] = [];
  page.on("console", (message) => {
    if (/Content Security Policy|Content-Security-Policy/i.test(message.text())) violations.push(`${page.url()}: ${message.text()}`);
  });
  await page.exposeFunction("__reportCspViolation", (text: string) => violations.push(text));
  await page.addInitScript(() => {
    document.addEventListener("securitypolicyviolation", (e) => {
      (window as unknown as { __reportCspViolation: (t: string) => void }).__reportCspViolation(
        `${location.href}: ${e.violatedDirective} blocked ${e.blockedURI} (${e.sourceFile}:${e.lineNumber})`,
      );
    });
  });
  return violations;
}

test("the main pages render and hydrate with no CSP violation", async ({ page }) => {
  const violations = await watchViolations(page);
  const hydrated = async () => {
    // A client-side navigation needs hydrated React; checked by the pages' own interactive parts below.
    await page.waitForLoadState("networkidle");
  };

  await page.goto("/sign-in");
  await hydrated();
  await signIn(page, "admin@demo.test");
  await expect(page).toHaveURL(/\/org\/[0-9a-f-]{36}$/);
  await expect(page.getByRole("heading", { name: "Portals" })).toBeVisible();
  const orgPath = new URL(page.url()).pathname;
  await hydrated();

  await page.getByTestId("portal-row").first().getByRole("link").click();
  await expect(page.getByTestId("portal-name")).toBeVisible();
  await hydrated();

  // API settings: create a client (a server action, so the page's scripts must be running).
  await page.goto(`${orgPath}/settings/api`);
  await expect(page.getByRole("heading", { name: "API settings" })).toBeVisible();
  await page.getByLabel("Name", { exact: true }).fill("CSP check");
  await page.getByLabel("Redirect URIs").fill("http://127.0.0.1:9/callback");
  await page.getByRole("checkbox", { name: "portal:read" }).check();
  await page.getByRole("button", { name: "Create client" }).click();
  const clientId = (await page.getByTestId("new-client-id").textContent()) ?? "";
  expect(clientId).toMatch(/^cpc_/);

  await page.goto(`${orgPath}/settings/connected-apps`);
  await hydrated();
  await page.goto(`${orgPath}/settings/webhooks`);
  await hydrated();

  // The consent screen of that client.
  const authorize = new URLSearchParams({
    response_type: "code",
    client_id: clientId,
    redirect_uri: "http://127.0.0.1:9/callback",
    scope: "portal:read",
    state: "csp",
  });
  await page.goto(`/oauth/authorize?${authorize}`);
  await expect(page.getByRole("heading", { name: "Authorize CSP check" })).toBeVisible();
  await hydrated();
  const consent = await page.request.get(page.url());
  expect(policy(consent).get("form-action"), "the consent form redirects to the client").toBeUndefined();
  expect(policy(consent).get("frame-ancestors")).toBe("'none'");

  expect(violations).toEqual([]);
});
