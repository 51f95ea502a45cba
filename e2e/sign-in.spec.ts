import { expect, test } from "@playwright/test";

import { DEMO_PASSWORD, signIn } from "./support";

test("the demo admin signs in with a password and sees the portal list", async ({ page }) => {
  await page.goto("/");
  await expect(page).toHaveURL(/\/sign-in\?callbackUrl=/);

  await page.getByLabel("Email", { exact: true }).fill("admin@demo.test");
  await page.getByLabel("Password").fill(DEMO_PASSWORD);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();

  await expect(page).toHaveURL(/\/org\/[0-9a-f-]{36}$/);
  await expect(page.getByRole("heading", { name: "Portals" })).toBeVisible();
  const rows = page.getByTestId("portal-row");
  await expect(rows).toHaveCount(2);
  await expect(rows.first()).toContainText("Acme Ltd");
  await expect(page.getByTestId("signed-in-as")).toHaveText("Avery Admin");

  await rows.first().getByRole("link").click();
  await expect(page).toHaveURL(/\/vault\/[0-9a-f-]{36}\/folder\/main$/);
  await expect(page.getByTestId("portal-name")).toContainText("Acme Ltd");
  await expect(page.getByTestId("file-rows").getByRole("link", { name: /Statements/ })).toBeVisible();
});

test("a wrong password is refused with a message and no session", async ({ page }) => {
  await page.goto("/sign-in");
  await page.getByLabel("Email", { exact: true }).fill("admin@demo.test");
  await page.getByLabel("Password").fill("not-the-password");
  await page.getByRole("button", { name: "Sign in", exact: true }).click();

  await expect(page.getByRole("alert").filter({ hasText: "do not match" })).toBeVisible();
  await page.goto("/");
  await expect(page).toHaveURL(/\/sign-in/);
});

test("a guest sees only the portal they were invited to", async ({ page }) => {
  await page.goto("/sign-in");
  await page.getByLabel("Email", { exact: true }).fill("guest@demo.test");
  await page.getByLabel("Password").fill(DEMO_PASSWORD);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();

  // Only a guest: the guest home, not an organization's portal list.
  await expect(page).toHaveURL(/\/guest$/);
  await expect(page.getByTestId("home-portal")).toHaveCount(1);
  await expect(page.getByTestId("home-portal")).toContainText("Acme Ltd");
  await page.goto("/");
  await expect(page).toHaveURL(/\/guest$/);
});

test("a magic link from the captured mailbox signs the member in, and sign-out ends the session", async ({ page }) => {
  await page.goto("/sign-in");
  await page.getByLabel("Email for a sign-in link").fill("member@demo.test");
  await page.getByRole("button", { name: "Email me a link" }).click();
  await expect(page.getByRole("heading", { name: "Check your email" })).toBeVisible();

  await page.goto("/dev/mailbox");
  const text = await page.getByTestId("mail-text").first().textContent();
  const link = text?.match(/https?:\/\/\S+/)?.[0];
  expect(link, "the captured email holds a sign-in link").toBeTruthy();
  expect(text).toContain("Sign in to Client Portals");

  await page.goto(link!);
  await expect(page.getByTestId("signed-in-as")).toHaveText("Morgan Member");

  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page).toHaveURL(/\/sign-in/);
  await page.goto("/");
  await expect(page).toHaveURL(/\/sign-in/);
});

test("a return path that a browser would read as another site lands in the app after sign-in", async ({ page }) => {
  // Slash, TAB, "/evil.example/": browsers drop the TAB and read "//evil.example/".
  for (const callbackUrl of ["%2F%09%2Fevil.example%2F", "%2F%09%5Cevil.example%2F", "%2F%0A%2Fevil.example%2F", "%2F%0D%0A%2Fevil.example%2F"]) {
    await page.context().clearCookies();
    const response = await page.goto(`/sign-in?callbackUrl=${callbackUrl}`);
    expect(response?.status(), callbackUrl).toBe(200);
    await signIn(page, "admin@demo.test");
    await expect(page, callbackUrl).toHaveURL(/^http:\/\/localhost:\d+\/org\/[0-9a-f-]{36}$/);
    await expect(page.getByRole("heading", { name: "Portals" })).toBeVisible();
  }
});

test("a same-site return path is kept through sign-in", async ({ page }) => {
  await page.goto(`/sign-in?callbackUrl=${encodeURIComponent("/docs/api")}`);
  await signIn(page, "admin@demo.test");
  await expect(page).toHaveURL(/\/docs\/api$/);
});
