import { randomUUID } from "node:crypto";
import bcrypt from "bcryptjs";
import { generate } from "otplib";
import { expect, test, type Browser, type Page } from "@playwright/test";

import { query } from "./db";
import { DEMO_PASSWORD } from "./support";

// TOTP two-factor in Chromium: a member sets it up from the account page (the code computed as an
// authenticator app would), then signing in takes the password and a code, or a recovery code once.

async function newMember(): Promise<string> {
  const email = `totp-${randomUUID().slice(0, 8)}@demo.test`;
  const [user] = await query<{ id: string }>(
    `INSERT INTO "User" (id, email, name, "passwordHash", "updatedAt") VALUES (gen_random_uuid(), $1, 'Tess Totp', $2, now()) RETURNING id`,
    [email, await bcrypt.hash(DEMO_PASSWORD, 4)],
  );
  await query(
    `INSERT INTO "Membership" (id, "orgId", "userId", role) SELECT gen_random_uuid(), m."orgId", $1, 'member' FROM "Membership" m JOIN "User" u ON u.id = m."userId" WHERE u.email = 'admin@demo.test'`,
    [user!.id],
  );
  return email;
}

async function signInWith(page: Page, email: string, code?: string) {
  await page.getByLabel("Email", { exact: true }).fill(email);
  await page.getByLabel("Password").fill(DEMO_PASSWORD);
  if (code !== undefined) await page.getByLabel("Authentication code").fill(code);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
}

async function freshPage(browser: Browser) {
  const page = await (await browser.newContext()).newPage();
  await page.goto("/sign-in");
  return page;
}

test("a member turns on TOTP; sign-in then needs a code from the app or a recovery code, each once", async ({ browser }) => {
  test.setTimeout(120_000);
  const email = await newMember();
  const page = await freshPage(browser);
  await signInWith(page, email);
  await expect(page.getByTestId("signed-in-as")).toHaveText("Tess Totp");

  await page.goto("/account/two-factor");
  await page.getByRole("button", { name: "Set up two-factor authentication" }).click();
  const secret = (await page.getByTestId("totp-secret").textContent())?.trim() ?? "";
  expect(secret).toMatch(/^[A-Z2-7]{16,}$/);
  await page.getByLabel("Code from the app").fill("000000");
  await page.getByRole("button", { name: "Turn on" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "That code is not right" })).toBeVisible();
  await page.getByLabel("Code from the app").fill(await generate({ secret }));
  await page.getByRole("button", { name: "Turn on" }).click();
  await expect(page.getByTestId("recovery-code")).toHaveCount(10);
  const codes = await page.getByTestId("recovery-code").allTextContents();
  expect(codes).toHaveLength(10);
  const [enabled] = await query<{ n: string }>(
    `SELECT count(*) AS n FROM "TwoFactor" t JOIN "User" u ON u.id = t."userId" WHERE u.email = $1 AND t."enabledAt" IS NOT NULL`,
    [email],
  );
  expect(enabled?.n).toBe("1");

  // Another browser: the password alone asks for the code; a wrong code is refused.
  const second = await freshPage(browser);
  await signInWith(second, email);
  await expect(second.getByRole("alert").filter({ hasText: "two-factor authentication on" })).toBeVisible();
  await signInWith(second, email, "123456");
  await expect(second.getByRole("alert").filter({ hasText: "That code is not right" })).toBeVisible();
  await expect(second).toHaveURL(/\/sign-in/);

  // A recovery code signs in once.
  await signInWith(second, email, codes[0]!);
  await expect(second.getByTestId("signed-in-as")).toHaveText("Tess Totp");
  const third = await freshPage(browser);
  await signInWith(third, email);
  await expect(third.getByLabel("Authentication code")).toBeVisible();
  await signInWith(third, email, codes[0]!);
  await expect(third.getByRole("alert").filter({ hasText: "That code is not right" })).toBeVisible();

  // The app's code of the next time step (the enrolment used the current one) signs in.
  const step = 30_000;
  await third.waitForTimeout(step - (Date.now() % step) + 500);
  await signInWith(third, email, await generate({ secret }));
  await expect(third.getByTestId("signed-in-as")).toHaveText("Tess Totp");

  const audit = await query<{ action: string }>(
    `SELECT a.action FROM "AuditLog" a JOIN "User" u ON u.id = a."targetId"::uuid WHERE u.email = $1 ORDER BY a."createdAt"`,
    [email],
  );
  expect(audit.map((a) => a.action)).toEqual(["two_factor.enabled", "two_factor.failed", "two_factor.recovery_code_used", "two_factor.failed"]);
});

test("an organization that requires two-factor stops a member without it at the enrolment page", async ({ browser }) => {
  const email = `required-${randomUUID().slice(0, 8)}@demo.test`;
  const [org] = await query<{ id: string }>(
    `INSERT INTO "Organization" (id, name, "requireTwoFactor", "updatedAt") VALUES (gen_random_uuid(), $1, true, now()) RETURNING id`,
    [`Strict firm ${randomUUID().slice(0, 8)}`],
  );
  const [user] = await query<{ id: string }>(
    `INSERT INTO "User" (id, email, name, "passwordHash", "updatedAt") VALUES (gen_random_uuid(), $1, 'Rita Required', $2, now()) RETURNING id`,
    [email, await bcrypt.hash(DEMO_PASSWORD, 4)],
  );
  await query(`INSERT INTO "Membership" (id, "orgId", "userId", role) VALUES (gen_random_uuid(), $1, $2, 'member')`, [org!.id, user!.id]);

  const page = await freshPage(browser);
  await signInWith(page, email);
  await expect(page).toHaveURL(/\/account\/two-factor\?required=1$/);
  await expect(page.getByRole("alert").filter({ hasText: "Your organization requires two-factor authentication" })).toBeVisible();
  await page.goto(`/org/${org!.id}/settings/profile`);
  await expect(page).toHaveURL(/\/account\/two-factor\?required=1$/);

  await page.getByRole("button", { name: "Set up two-factor authentication" }).click();
  const secret = (await page.getByTestId("totp-secret").textContent())?.trim() ?? "";
  await page.getByLabel("Code from the app").fill(await generate({ secret }));
  await page.getByRole("button", { name: "Turn on" }).click();
  await expect(page.getByTestId("recovery-code")).toHaveCount(10);
  await page.goto(`/org/${org!.id}`);
  await expect(page.getByRole("heading", { name: "Portals" })).toBeVisible();
});
