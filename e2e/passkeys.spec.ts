import { randomUUID } from "node:crypto";
import bcrypt from "bcryptjs";
import { expect, test, type Page } from "@playwright/test";

import { query } from "./db";
import { DEMO_PASSWORD, expectAxeClean, saveScreenshot } from "./support";

// Passkeys in Chromium with a virtual authenticator (Chrome DevTools Protocol, WebAuthn domain):
// a member adds a passkey on the account page, signs out, and signs in with password and passkey,
// then with the passkey alone; an organization that requires two-factor lets in a member whose
// only factor is a passkey. Screenshots of the pages at 1280x800 and 390x844, axe on each.

const SIZES = [
  { width: 1280, height: 800 },
  { width: 390, height: 844 },
];

/** A platform authenticator with user verification (fingerprint, face or PIN) that always says yes. */
async function addVirtualAuthenticator(page: Page): Promise<void> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("WebAuthn.enable");
  await cdp.send("WebAuthn.addVirtualAuthenticator", {
    options: {
      protocol: "ctap2",
      transport: "internal",
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
}

async function newUser(name: string, orgId?: string): Promise<string> {
  const email = `passkey-${randomUUID().slice(0, 8)}@demo.test`;
  const [user] = await query<{ id: string }>(
    `INSERT INTO "User" (id, email, name, "passwordHash", "updatedAt") VALUES (gen_random_uuid(), $1, $2, $3, now()) RETURNING id`,
    [email, name, await bcrypt.hash(DEMO_PASSWORD, 4)],
  );
  if (orgId) await query(`INSERT INTO "Membership" (id, "orgId", "userId", role) VALUES (gen_random_uuid(), $1, $2, 'member')`, [orgId, user!.id]);
  else {
    await query(
      `INSERT INTO "Membership" (id, "orgId", "userId", role) SELECT gen_random_uuid(), m."orgId", $1, 'member' FROM "Membership" m JOIN "User" u ON u.id = m."userId" WHERE u.email = 'admin@demo.test'`,
      [user!.id],
    );
  }
  return email;
}

async function typePassword(page: Page, email: string) {
  await page.getByLabel("Email", { exact: true }).fill(email);
  await page.getByLabel("Password").fill(DEMO_PASSWORD);
}

async function addPasskey(page: Page, name: string) {
  await page.getByLabel("Name of the new passkey").fill(name);
  await page.getByRole("button", { name: "Add a passkey" }).click();
  await expect(page.getByRole("status").filter({ hasText: `Passkey "${name}" added.` })).toBeVisible();
}

/** Signs out from the header of the organization's pages (the account pages have none). */
async function signOut(page: Page) {
  await page.goto("/");
  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page).toHaveURL(/\/sign-in/);
}

async function shoot(page: Page, name: string) {
  for (const size of SIZES) {
    await page.setViewportSize(size);
    await saveScreenshot(page, `passkeys-${name}-${size.width}x${size.height}`, { fullPage: true });
    await expectAxeClean(page, `${name} at ${size.width}x${size.height}`);
  }
  await page.setViewportSize(SIZES[0]!);
}

test("a member adds a passkey, signs out, and signs in with password and passkey, then with the passkey alone", async ({ page }) => {
  test.setTimeout(120_000);
  await addVirtualAuthenticator(page);
  const email = await newUser("Pia Passkey");
  await page.goto("/sign-in");
  await typePassword(page, email);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await expect(page.getByTestId("signed-in-as")).toHaveText("Pia Passkey");

  await page.goto("/account/two-factor");
  await expect(page.getByText("No passkeys yet.")).toBeVisible();
  // A name is asked for before the browser's dialog.
  await page.getByRole("button", { name: "Add a passkey" }).click();
  await expect(page.getByTestId("passkey")).toHaveCount(0);
  await addPasskey(page, "Work laptop");
  await expect(page.getByTestId("passkey")).toHaveCount(1);
  await expect(page.getByTestId("passkey")).toContainText("Work laptop");
  await expect(page.getByTestId("passkey")).toContainText("not used yet");
  // The same authenticator cannot hold a second passkey for the account (it is excluded).
  await page.getByLabel("Name of the new passkey").fill("Again");
  await page.getByRole("button", { name: "Add a passkey" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "This device already holds a passkey for your account." })).toBeVisible();
  await expect(page.getByTestId("passkey")).toHaveCount(1);
  await shoot(page, "account");
  await signOut(page);

  // The password alone is not enough now: the page asks for the passkey.
  await typePassword(page, email);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await expect(page.getByRole("alert").filter({ hasText: "enter your password again, then use your passkey." })).toBeVisible();
  await expect(page.getByLabel("Authentication code")).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Sign in with a passkey" })).toHaveCount(0);
  await shoot(page, "second-factor");
  await typePassword(page, email);
  await page.getByRole("button", { name: "Use your passkey" }).click();
  await expect(page.getByTestId("signed-in-as")).toHaveText("Pia Passkey");

  await page.goto("/account/two-factor");
  await expect(page.getByTestId("passkey")).toContainText("last used");
  await signOut(page);

  // The passkey alone (discoverable, user verified): no email typed.
  await shoot(page, "sign-in");
  await page.getByRole("button", { name: "Sign in with a passkey" }).click();
  await expect(page.getByTestId("signed-in-as")).toHaveText("Pia Passkey");

  // Removal asks first; then the password alone signs in again.
  await page.goto("/account/two-factor");
  await page.getByRole("button", { name: "Remove passkey Work laptop" }).click();
  const dialog = page.getByRole("alertdialog", { name: 'Remove the passkey "Work laptop"?' });
  await expect(dialog).toContainText("It is your only second factor");
  await dialog.getByRole("button", { name: "Remove passkey" }).click();
  await expect(page.getByText("No passkeys yet.")).toBeVisible();

  const audit = await query<{ action: string }>(
    `SELECT a.action FROM "AuditLog" a JOIN "User" u ON u.id = a."targetId"::uuid WHERE u.email = $1 ORDER BY a."createdAt"`,
    [email],
  );
  expect(audit.map((a) => a.action)).toEqual(["passkey.added", "passkey.removed"]);
  const [counter] = await query<{ n: string }>(`SELECT count(*) AS n FROM "Passkey" p JOIN "User" u ON u.id = p."userId" WHERE u.email = $1`, [email]);
  expect(counter?.n).toBe("0");
});

test("an organization that requires two-factor accepts a member whose only factor is a passkey", async ({ page }) => {
  test.setTimeout(90_000);
  await addVirtualAuthenticator(page);
  const [org] = await query<{ id: string }>(
    `INSERT INTO "Organization" (id, name, "requireTwoFactor", "updatedAt") VALUES (gen_random_uuid(), $1, true, now()) RETURNING id`,
    [`Strict firm ${randomUUID().slice(0, 8)}`],
  );
  const email = await newUser("Rex Required", org!.id);

  await page.goto("/sign-in");
  await typePassword(page, email);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await expect(page).toHaveURL(/\/account\/two-factor\?required=1$/);
  await expect(page.getByRole("alert").filter({ hasText: "Add a passkey or set up an authenticator app" })).toBeVisible();

  await addPasskey(page, "Phone");
  await page.goto(`/org/${org!.id}`);
  await expect(page.getByRole("heading", { name: "Portals" })).toBeVisible();

  // Next time: password and passkey, straight into the organization.
  await signOut(page);
  await typePassword(page, email);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await expect(page.getByRole("button", { name: "Use your passkey" })).toBeVisible();
  await typePassword(page, email);
  await page.getByRole("button", { name: "Use your passkey" }).click();
  await expect(page.getByTestId("signed-in-as")).toHaveText("Rex Required");
  await page.goto(`/org/${org!.id}`);
  await expect(page.getByRole("heading", { name: "Portals" })).toBeVisible();
});
