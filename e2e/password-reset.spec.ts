import { randomBytes } from "node:crypto";
import { expect, test, type Page } from "@playwright/test";
import { query } from "./db";
import { authorizeNewClient, callbackServer, expectAxeClean, saveScreenshot } from "./support";

// Guest account care, on a phone: a guest invited through the API signs in with
// a magic link (and, being only a guest, lands on the guest home), then on another device forgets
// the password, asks for a reset link, sets a new password and is signed in; the first device's
// session ends; the used link says so and offers a fresh one.

const GUEST_EMAIL = `reset-guest-${randomBytes(4).toString("hex")}@client.test`;
const PHONE = { width: 390, height: 844 };

test.describe.configure({ mode: "serial" });
test.setTimeout(180_000);
const callback = callbackServer();

/** Fits the phone's width, screenshot saved, no serious or critical axe violation. */
async function checkPage(page: Page, name: string): Promise<void> {
  await page.waitForLoadState("networkidle");
  const { scrollWidth, innerWidth } = await page.evaluate(() => ({ scrollWidth: document.documentElement.scrollWidth, innerWidth: window.innerWidth }));
  expect(scrollWidth, `${name} is wider than the phone`).toBeLessThanOrEqual(innerWidth);
  await saveScreenshot(page, `${name}-390x844`, { fullPage: true });
  await expectAxeClean(page, name);
}

/** The newest captured email of a template to the guest, and the first link in it. */
async function lastLink(template: string): Promise<string> {
  let link: string | undefined;
  await expect
    .poll(async () => {
      const [mail] = await query<{ text: string }>(`SELECT "text" FROM "OutboundEmail" WHERE "to" = $1 AND "template" = $2 ORDER BY "createdAt" DESC LIMIT 1`, [
        GUEST_EMAIL,
        template,
      ]);
      link = mail?.text.match(/https?:\/\/\S+/)?.[0];
      return link;
    })
    .toBeTruthy();
  return link!;
}

test("a guest signs in by magic link, resets a forgotten password on a phone, and the older session ends", async ({ browser, page, request }) => {
  // The admin's client invites a new address to Acme Ltd; the guest never sets a password.
  const { accessToken } = await authorizeNewClient(page, request, { name: "Reset bot", redirectUri: callback.uri, scopes: ["portal:read", "guest:invite"] });
  const headers = { Authorization: `Bearer ${accessToken}` };
  const portals = (await (await request.get("/api/v1/portals", { headers })).json()) as Array<{ id: string; name: string }>;
  const acme = portals.find((p) => p.name.includes("Acme Ltd"));
  expect(acme).toBeTruthy();
  expect((await request.post(`/api/v1/portals/${acme!.id}/guests`, { headers, data: { email: GUEST_EMAIL, name: "Rae Reset" } })).status()).toBe(201);
  await page.context().clearCookies();

  // Device 1 (a laptop): a magic link signs the guest in; only a guest, so the guest home.
  const laptop = await browser.newContext();
  const first = await laptop.newPage();
  await first.goto("/sign-in");
  await first.getByLabel("Email for a sign-in link").fill(GUEST_EMAIL);
  await first.getByRole("button", { name: "Email me a link" }).click();
  await expect(first.getByRole("heading", { name: "Check your email" })).toBeVisible();
  await first.goto(await lastLink("magic-link"));
  await expect(first).toHaveURL(/\/guest$/);
  await expect(first.getByTestId("home-portal")).toHaveCount(1);
  await expect(first.getByTestId("home-portal")).toContainText("Acme Ltd");
  await first.goto("/");
  await expect(first).toHaveURL(/\/guest$/);

  // Device 2 (the phone): "Forgot password?" from the sign-in page.
  await page.setViewportSize(PHONE);
  await page.goto("/sign-in");
  await page.getByRole("link", { name: "Forgot password?" }).click();
  await expect(page).toHaveURL(/\/sign-in\/forgot$/);
  await checkPage(page, "forgot-password");
  await page.getByLabel("Email").fill(GUEST_EMAIL.toUpperCase());
  await page.getByRole("button", { name: "Email me a reset link" }).click();
  await expect(page).toHaveURL(/\/sign-in\/forgot\/sent$/);
  await expect(page.getByText("expires in 1 hour")).toBeVisible();
  await checkPage(page, "forgot-password-sent");

  const link = await lastLink("password-reset");
  expect(link).toMatch(/\/reset-password\/[A-Za-z0-9_-]{40,}$/);
  const [stored] = await query<{ tokenHash: string }>(
    `SELECT t."tokenHash" FROM "PasswordResetToken" t JOIN "User" u ON u."id" = t."userId" WHERE u."email" = $1`,
    [GUEST_EMAIL],
  );
  expect(stored?.tokenHash, "only the hash is stored").not.toBe(link.split("/").pop());

  // The new password: a mistake is shown at its field; then saved, and the guest is signed in.
  await page.goto(link);
  await checkPage(page, "reset-password");
  await page.getByLabel(/^New password/).fill("a-fresh-password-1");
  await page.getByLabel("Repeat the new password").fill("a-different-one-2");
  await page.getByRole("button", { name: "Save the password and sign in" }).click();
  await expect(page.getByLabel("Repeat the new password")).toHaveAccessibleDescription("The two passwords differ");
  await page.getByLabel(/^New password/).fill("a-fresh-password-1");
  await page.getByLabel("Repeat the new password").fill("a-fresh-password-1");
  await page.getByRole("button", { name: "Save the password and sign in" }).click();
  await expect(page).toHaveURL(/\/guest$/);
  await expect(page.getByTestId("signed-in-as")).toHaveText("Rae Reset");

  // The laptop's session, from before the reset, has ended.
  await first.goto("/guest");
  await expect(first).toHaveURL(/\/sign-in\?callbackUrl=%2Fguest/);
  await laptop.close();

  // The link worked once: it now says so and offers a fresh one.
  await page.context().clearCookies();
  await page.goto(link);
  await expect(page.getByRole("alert").filter({ hasText: "expired or was already used" })).toBeVisible();
  await checkPage(page, "reset-password-used");
  await page.getByRole("link", { name: "Send me a new link" }).click();
  await expect(page).toHaveURL(/\/sign-in\/forgot$/);

  // The new password signs in; the guest lands on the guest home.
  await page.goto("/sign-in");
  await page.getByLabel("Email", { exact: true }).fill(GUEST_EMAIL);
  await page.getByLabel("Password").fill("a-fresh-password-1");
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await expect(page).toHaveURL(/\/guest$/);
});
