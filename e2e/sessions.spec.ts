import { expect, test, type Browser } from "@playwright/test";

import { query } from "./db";
import { signIn } from "./support";

// Sign-out ends the session on the server: a copy of the cookie taken before signing out opens
// nothing and runs no server action afterwards. The sessions page signs another browser out.

async function signedInContext(browser: Browser, email: string) {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto("/sign-in");
  await signIn(page, email);
  await expect(page.getByTestId("signed-in-as")).toBeVisible();
  return { context, page };
}

test("a session cookie replayed after sign-out opens no page and runs no server action", async ({ browser }) => {
  const original = await signedInContext(browser, "member@demo.test");
  const orgUrl = original.page.url();
  const cookies = await original.context.cookies();
  expect(cookies.some((c) => c.name.includes("session-token"))).toBe(true);

  // A second browser holding a copy of the cookie opens the create-portal form while it still works.
  const replay = await browser.newContext();
  await replay.addCookies(cookies);
  const replayed = await replay.newPage();
  await replayed.goto(orgUrl);
  await expect(replayed.getByTestId("signed-in-as")).toHaveText("Morgan Member");
  await replayed.getByRole("button", { name: "New portal" }).click();
  const dialog = replayed.getByRole("dialog", { name: "New portal" });
  const name = `Replayed session ${Date.now()}`;
  await dialog.getByLabel("Name").fill(name);

  // The original browser signs out.
  await original.page.getByRole("button", { name: "Sign out" }).click();
  await expect(original.page).toHaveURL(/\/sign-in/);

  // The server action posted with the copied cookie is refused: sign-in, and no portal.
  await dialog.getByRole("button", { name: "Create and open" }).click();
  await expect(replayed).toHaveURL(/\/sign-in/);
  expect(await query(`SELECT id FROM "Portal" WHERE name = $1`, [name])).toEqual([]);

  // Pages too, with a fresh copy of the cookie in yet another browser.
  const third = await browser.newContext();
  await third.addCookies(cookies);
  const page = await third.newPage();
  for (const path of [orgUrl, "/account/sessions", "/account/notifications"]) {
    await page.goto(path);
    await expect(page, path).toHaveURL(/\/sign-in/);
  }
  const [session] = await query<{ revokedAt: Date | null }>(
    `SELECT s."revokedAt" FROM "UserSession" s JOIN "User" u ON u.id = s."userId" WHERE u.email = 'member@demo.test' ORDER BY s."createdAt" DESC LIMIT 1`,
  );
  expect(session?.revokedAt).not.toBeNull();
  await Promise.all([original.context.close(), replay.close(), third.close()]);
});

test("the sessions page lists the browsers signed in and signs another one out", async ({ browser }) => {
  const other = await signedInContext(browser, "admin@demo.test");
  const here = await signedInContext(browser, "admin@demo.test");

  await here.page.goto("/account/sessions");
  await expect(here.page.getByRole("heading", { name: "Signed-in sessions" })).toBeVisible();
  const rows = here.page.getByTestId("session");
  expect(await rows.count()).toBeGreaterThanOrEqual(2);
  const current = rows.filter({ hasText: "This browser" });
  await expect(current).toHaveCount(1);
  await expect(current).toContainText(/^Chrome \d+ on Windows/);
  await expect(current).toContainText(/127\.0\.0\.1|::1|::ffff:127\.0\.0\.1/);
  await expect(current).toContainText(/last seen (just now|\d+ min ago) · signed in \d{1,2} [A-Z][a-z]{2} \d{4}, \d{2}:\d{2}/);

  // The other browser works until it is signed out from here.
  await other.page.goto("/account/notifications");
  await expect(other.page.getByRole("heading", { name: "My notifications" })).toBeVisible();
  await here.page.getByRole("button", { name: "Sign out of all other sessions" }).click();
  await expect(here.page.getByText("No other browser is signed in.")).toBeVisible();
  await expect(rows).toHaveCount(1);

  await other.page.goto("/account/notifications");
  await expect(other.page).toHaveURL(/\/sign-in/);
  await here.page.goto("/account/notifications");
  await expect(here.page.getByRole("heading", { name: "My notifications" })).toBeVisible();

  // One session signed out by its own button.
  const third = await signedInContext(browser, "admin@demo.test");
  await here.page.goto("/account/sessions");
  await expect(rows).toHaveCount(2);
  await rows
    .filter({ hasNotText: "This browser" })
    .getByRole("button", { name: /^Sign out/ })
    .click();
  await expect(rows).toHaveCount(1);
  await third.page.goto("/account/notifications");
  await expect(third.page).toHaveURL(/\/sign-in/);
  await Promise.all([other.context.close(), here.context.close(), third.context.close()]);
});
