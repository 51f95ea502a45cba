import AxeBuilder from "@axe-core/playwright";
import { expect, test, type Page } from "@playwright/test";
import { signIn } from "./support";

// Every page, as each role sees it, on a laptop and on a phone: nothing wider than the screen,
// no serious or critical accessibility violation (axe-core), a screenshot of each to look at.

const SIZES = [
  { label: "laptop", width: 1280, height: 800 },
  { label: "phone", width: 390, height: 844 },
] as const;

// Scalar's own widget has violations of its own (inputs without names, icon buttons without
// labels, contrast of method badges): upstream, left out of the scan; our page around it is not.
const THIRD_PARTY = [".scalar-app", ".scalar-api-reference", "[class*='scalar']"];

async function checkPage(page: Page, name: string): Promise<void> {
  for (const size of SIZES) {
    await page.setViewportSize({ width: size.width, height: size.height });
    await page.waitForLoadState("networkidle");
    const { scrollWidth, innerWidth } = await page.evaluate(() => ({ scrollWidth: document.documentElement.scrollWidth, innerWidth: window.innerWidth }));
    expect(scrollWidth, `${name} is ${scrollWidth}px wide on a ${innerWidth}px ${size.label}`).toBeLessThanOrEqual(innerWidth);
    await page.screenshot({ path: `test-results/screenshots/${name}-${size.width}x${size.height}.png`, fullPage: true });
  }
  let axe = new AxeBuilder({ page });
  for (const selector of THIRD_PARTY) if ((await page.locator(selector).count()) > 0) axe = axe.exclude(selector);
  const { violations } = await axe.analyze();
  const serious = violations.filter((v) => v.impact === "serious" || v.impact === "critical");
  expect(
    serious.map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`),
    `axe on ${name}`,
  ).toEqual([]);
  await page.setViewportSize({ width: 1280, height: 800 });
}

async function signedIn(page: Page, email: string): Promise<{ org: string; portal: string }> {
  await page.goto("/sign-in");
  await signIn(page, email);
  await expect(page).toHaveURL(/\/org\/[0-9a-f-]{36}$/);
  const org = new URL(page.url()).pathname;
  const portal = (await page.getByTestId("portal-row").first().getByRole("link").getAttribute("href")) ?? "";
  return { org, portal };
}

test("pages without a session fit a phone and pass axe", async ({ page }) => {
  for (const [name, path] of [
    ["sign-in", "/sign-in"],
    ["check-email", "/sign-in/check-email"],
    ["forgot-password", "/sign-in/forgot"],
    ["forgot-password-sent", "/sign-in/forgot/sent"],
    ["reset-password-expired", "/reset-password/no-such-token"],
    ["oauth-error", "/oauth/error?reason=invalid_form"],
    ["invite-unknown", "/invite/no-such-token"],
    ["not-found", "/no-such-page"],
  ] as const) {
    await page.goto(path);
    await checkPage(page, name);
  }
  await page.goto("/sign-in/check-email");
  await expect(page.getByRole("heading", { level: 1, name: "Check your email" })).toBeVisible();
});

test("every page an admin sees fits a phone and passes axe", async ({ page }) => {
  const { org, portal } = await signedIn(page, "admin@demo.test");
  await expect(page).toHaveTitle("Portals · Client Portals");
  for (const [name, path] of [
    ["admin-portals", org],
    ["admin-portal", portal],
    ["admin-api-settings", `${org}/settings/api`],
    ["admin-webhooks", `${org}/settings/webhooks`],
    ["admin-connected-apps", `${org}/settings/connected-apps`],
    ["admin-not-found", `${org}/no-such-page`],
    ["api-reference", "/docs/api"],
  ] as const) {
    await page.goto(path);
    await checkPage(page, name);
  }
});

test("on a phone the header is a menu that opens the navigation and Sign out", async ({ page }) => {
  await signedIn(page, "admin@demo.test");
  await page.setViewportSize({ width: 390, height: 844 });
  const menu = page.getByRole("button", { name: "Menu" });
  await expect(menu).toBeVisible();
  await expect(menu).toHaveAttribute("aria-expanded", "false");
  await expect(page.getByRole("button", { name: "Sign out" })).toBeHidden();
  await menu.click();
  await expect(menu).toHaveAttribute("aria-expanded", "true");
  await expect(page.getByRole("button", { name: "Sign out" })).toBeInViewport();
  await page.screenshot({ path: "test-results/screenshots/admin-menu-open-390x844.png" });
  await page.getByRole("link", { name: "Connected apps" }).click();
  await expect(page.getByRole("heading", { name: "Connected apps" })).toBeVisible();
  await expect(menu).toHaveAttribute("aria-expanded", "false");
  await page.setViewportSize({ width: 1280, height: 800 });
  await expect(menu).toBeHidden();
  await expect(page.getByRole("button", { name: "Sign out" })).toBeVisible();
});

test("a portal's page is titled with its name; not-found inside the app keeps the header", async ({ page }) => {
  const { org, portal } = await signedIn(page, "admin@demo.test");
  await page.goto(portal);
  const name = (await page.getByTestId("portal-name").textContent()) ?? "";
  expect(name).not.toBe("");
  await expect(page).toHaveTitle(`${name} · Client Portals`);

  for (const path of [`${org}/no-such-page`, `${org}/vault/00000000-0000-4000-8000-000000000000/folder/main`]) {
    const response = await page.goto(path);
    expect(response?.status(), path).toBe(404);
    await expect(page.getByRole("heading", { name: "Not found" })).toBeVisible();
    await expect(page.getByTestId("signed-in-as")).toHaveText("Avery Admin");
    await expect(page.getByRole("navigation", { name: "Settings" })).toBeVisible();
    await expect(page).toHaveTitle("Not found · Client Portals");
  }
});

test("a guest's pages fit a phone, and settings that do not apply to guests are not found", async ({ page }) => {
  // Only a guest: sign-in lands on the guest home, whose links open the portals.
  await page.goto("/sign-in");
  await signIn(page, "guest@demo.test");
  await expect(page).toHaveURL(/\/guest$/);
  await checkPage(page, "guest-home");
  const portal = (await page.getByTestId("home-portal").first().getByRole("link").first().getAttribute("href")) ?? "";
  const org = /^\/org\/[0-9a-f-]{36}/.exec(portal)?.[0] ?? "";
  expect(org, `the guest home links ${portal}`).not.toBe("");
  for (const [name, path] of [
    ["guest-portals", org],
    ["guest-portal", portal],
  ] as const) {
    await page.goto(path);
    await checkPage(page, name);
  }
  for (const settings of ["connected-apps", "api", "webhooks"]) {
    const response = await page.goto(`${org}/settings/${settings}`);
    expect(response?.status(), settings).toBe(404);
    await expect(page.getByRole("heading", { name: "Not found" })).toBeVisible();
    await expect(page.getByTestId("signed-in-as")).toBeVisible();
  }
  await checkPage(page, "guest-settings-not-found");
});

test("the API reference is Scalar, served by us: operations, search and no request to another host", async ({ page, baseURL }) => {
  const foreign: string[] = [];
  page.on("request", (r) => {
    const url = new URL(r.url());
    if (url.origin !== new URL(baseURL!).origin && url.protocol !== "data:" && url.protocol !== "blob:") foreign.push(r.url());
  });
  await page.goto("/docs/api");
  await expect(page).toHaveTitle(/API reference/);
  await page.waitForLoadState("networkidle");
  await page.screenshot({ path: "test-results/screenshots/api-reference-loaded-1280x800.png" });
  await expect(page.getByRole("heading", { name: "Client Portals API", exact: true })).toBeVisible();
  await page.getByText("Selected Auth Type").first().click();
  await page.screenshot({ path: "test-results/screenshots/api-reference-auth-1280x800.png" });
  expect(foreign).toEqual([]);
});
