import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { randomBytes } from "node:crypto";
import axe, { type AxeResults, type ElementContext, type RunOptions } from "axe-core";
import { expect, test, type APIRequestContext, type Browser, type Locator, type Page } from "@playwright/test";

// What several specs need: the demo sign-in and an OAuth client's callback server on loopback.

export const DEMO_PASSWORD = "demo-password-1";

/** Signs in on the current /sign-in page with the demo password. */
export async function signIn(page: Page, email: string): Promise<void> {
  await page.getByLabel("Email", { exact: true }).fill(email);
  await page.getByLabel("Password").fill(DEMO_PASSWORD);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
}

/** Opens a developer page (API settings, Webhooks, Connected apps) from the header's Developers menu. */
export async function openDeveloperPage(page: Page, name: string): Promise<void> {
  const menu = page.getByRole("button", { name: "Developers" });
  await menu.click();
  await expect(menu).toHaveAttribute("aria-expanded", "true");
  await page.locator("#developers-menu").getByRole("link", { name, exact: true }).click();
  await expect(page.getByRole("heading", { name, level: 1 })).toBeVisible();
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
  await openDeveloperPage(page, "API settings");
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

/**
 * Screenshots for people to look at, not assertions: written to `test-results/screenshots/<file>.png`
 * when E2E_SCREENSHOTS=1 (`npm run test:screenshots`), skipped otherwise, as nobody looks at them
 * in an ordinary run and a full-page capture costs as much as the checks beside it. (A failing test
 * keeps its own screenshot and trace either way.)
 */
export async function saveScreenshot(target: Page | Locator, file: string, options: { fullPage?: boolean } = {}): Promise<void> {
  if (process.env["E2E_SCREENSHOTS"] !== "1") return;
  const path = `test-results/screenshots/${file}.png`;
  await ("goto" in target ? target.screenshot({ path, fullPage: options.fullPage ?? false }) : target.screenshot({ path }));
}

/**
 * The serious and critical axe findings on the page as it is (or inside `include`; only `rules`,
 * when given), each as "rule (impact): the elements' selectors". Axe reports violations alone
 * (resultTypes): the passing and inapplicable rules are not detailed node by node, which on a
 * long page costs more than the checks themselves.
 *
 * axe-core is injected into each frame of a document once and run there (`axe.run`, which reaches
 * same-origin frames itself), not through @axe-core/playwright, whose builder sends and evaluates
 * the whole axe-core source on every run and finishes each run in a new blank page: 1-2 s a run
 * against 0.1-0.2 s.
 *
 * A page that renders itself again (router.refresh after the detected time zone is saved or a
 * thread is marked read) has no title for a moment while Next streams its metadata anew: the check
 * waits for a title first (5 s at most), and runs again when it found none but one came.
 */
export async function seriousAxeFindings(page: Page, { include, rules }: { include?: string; rules?: string[] } = {}): Promise<string[]> {
  const titled = () =>
    page
      .waitForFunction(() => document.title.trim() !== "", undefined, { timeout: 5_000 })
      .then(
        () => true,
        () => false,
      );
  await titled();
  const findings = await axeFindings(page, { include, rules });
  return findings.some((f) => f.startsWith("document-title ")) && (await titled()) ? axeFindings(page, { include, rules }) : findings;
}

async function axeFindings(page: Page, { include, rules }: { include?: string; rules?: string[] }): Promise<string[]> {
  for (const frame of page.frames()) {
    if (!(await frame.evaluate(() => "axe" in window))) await frame.evaluate(axe.source);
  }
  const options: RunOptions = { resultTypes: ["violations"], ...(rules ? { runOnly: { type: "rule", values: rules } } : {}) };
  const { violations } = await page.evaluate(
    ([selector, runOptions]) => {
      const context: ElementContext = selector ? { include: [selector] } : document;
      return (window as unknown as { axe: typeof axe }).axe.run(context, runOptions) as Promise<AxeResults>;
    },
    [include, options] as const,
  );
  return violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
}

/** No serious or critical axe violation on the page as it is, each named with its elements. */
export async function expectAxeClean(page: Page, name: string): Promise<void> {
  expect(await seriousAxeFindings(page), `axe on ${name}`).toEqual([]);
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

/** At `size`: a title, nothing wider than the screen, a full-page screenshot `<file>-<w>x<h>` (saveScreenshot), no serious or critical axe violation. */
export async function checkScreen(page: Page, file: string, size: { width: number; height: number }): Promise<void> {
  await page.setViewportSize(size);
  await page.waitForLoadState("networkidle");
  // Next streams a dynamic page's metadata: the title arrives after the body after a refresh.
  await expect(page).toHaveTitle(/\S/);
  const { scrollWidth, innerWidth } = await page.evaluate(() => ({ scrollWidth: document.documentElement.scrollWidth, innerWidth: window.innerWidth }));
  expect(scrollWidth, `${file} is wider than a ${innerWidth}px screen`).toBeLessThanOrEqual(innerWidth);
  await saveScreenshot(page, `${file}-${size.width}x${size.height}`, { fullPage: true });
  await expectAxeClean(page, file);
}

/**
 * The relative luminance (WCAG) of an element's text colour and of what is painted behind it: its
 * own background colour or the nearest ancestor's that is not transparent, in whatever syntax the
 * browser computed them (a canvas turns them into sRGB).
 */
export async function luminances(element: Locator): Promise<{ text: number; background: number }> {
  return element.evaluate((start) => {
    const canvas = document.createElement("canvas");
    canvas.width = canvas.height = 1;
    const ctx = canvas.getContext("2d", { willReadFrequently: true })!;
    const rgba = (colour: string) => {
      ctx.clearRect(0, 0, 1, 1);
      ctx.fillStyle = colour;
      ctx.fillRect(0, 0, 1, 1);
      return ctx.getImageData(0, 0, 1, 1).data;
    };
    const luminance = (data: Uint8ClampedArray) => {
      const [r, g, b] = [data[0]!, data[1]!, data[2]!].map((c) => {
        const v = c / 255;
        return v <= 0.04045 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
      });
      return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
    };
    let el: Element | null = start;
    let data = rgba("white");
    for (; el; el = el.parentElement) {
      data = rgba(getComputedStyle(el).backgroundColor);
      if (data[3]! > 0) break;
    }
    // No background anywhere: the canvas colour of the scheme, which the root's background decides.
    if (!el) data = rgba(getComputedStyle(document.documentElement).colorScheme.includes("dark") ? "black" : "white");
    const background = luminance(data);
    return { text: luminance(rgba(getComputedStyle(start).color)), background };
  });
}

/** The WCAG contrast ratio of two relative luminances. */
export const contrastRatio = (a: number, b: number): number => (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);

/**
 * A table row stacked on a phone reads as one unit: `start` and `end` (its actions) share a line,
 * `end` at the row's end, and nothing in the row is wider than the screen.
 */
export async function expectStackedRow(row: Locator, start: Locator, end: Locator, label: string): Promise<void> {
  const [box, a, b] = await Promise.all([row.boundingBox(), start.boundingBox(), end.boundingBox()]);
  const sameLine = b!.y < a!.y + a!.height && a!.y < b!.y + b!.height;
  expect(sameLine, `${label}: its actions (y ${b!.y}) are on the line of what they act on (y ${a!.y})`).toBe(true);
  expect(box!.x + box!.width - (b!.x + b!.width), `${label}: its actions are at the row's end`).toBeLessThanOrEqual(17);
  const { widest, screen } = await row.evaluate((tr) => ({
    widest: Math.max(...[...tr.querySelectorAll("*")].map((el) => el.getBoundingClientRect().right)),
    screen: window.innerWidth,
  }));
  expect(widest, `${label}: the row's parts fit the screen`).toBeLessThanOrEqual(screen);
}
