import { randomBytes } from "node:crypto";
import { expect, test } from "@playwright/test";
import { authorizeNewClient, callbackServer } from "./support";

// A guest invited through the API as an outside client would: the admin registers a client and
// authorizes it, the client invites a new address to a portal, the invitation is read from the
// captured mailbox, and the guest opens the link, creates an account and lands on the portal.

const GUEST_EMAIL = `new-guest-${randomBytes(4).toString("hex")}@client.test`;

test.describe.configure({ mode: "serial" });

const callback = callbackServer();

test("a guest invited through the API opens the emailed link, sets a password and sees the portal", async ({ page, request }) => {
  // The admin registers a client with guest:invite and authorizes it.
  const { accessToken } = await authorizeNewClient(page, request, { name: "Invite bot", redirectUri: callback.uri, scopes: ["portal:read", "guest:invite"] });
  const headers = { Authorization: `Bearer ${accessToken}` };

  // The client invites a new address to Acme Ltd.
  const portals = (await (await request.get("/api/v1/portals", { headers })).json()) as Array<{ id: string; name: string }>;
  const acme = portals.find((p) => p.name.includes("Acme Ltd"));
  expect(acme).toBeTruthy();
  const invited = await request.post(`/api/v1/portals/${acme!.id}/guests`, { headers, data: { email: ` ${GUEST_EMAIL.toUpperCase()} `, name: "Nia New" } });
  expect(invited.status()).toBe(201);
  expect(await invited.json()).toMatchObject({ success: true, invited_count: 1 });

  // The admin leaves: the guest uses a fresh session.
  await page.context().clearCookies();

  // The invitation email, captured at /dev/mailbox.
  await page.goto("/dev/mailbox");
  const texts = await page.getByTestId("mail-text").allTextContents();
  const invitation = texts.find((t) => t.includes("/invite/") && t.includes("Acme Ltd"));
  const link = invitation?.match(/https?:\/\/\S+\/invite\/[A-Za-z0-9_-]+/)?.[0];
  expect(link, "the captured invitation holds an accept link").toBeTruthy();

  // The new guest creates an account and lands on the portal.
  await page.goto(link!);
  await expect(page.getByText(/invited you to Acme Ltd/)).toBeVisible();
  // A mistake is shown at its field, and the name typed stays.
  await page.getByLabel("Your name").fill("Nia New");
  await page.getByLabel("Password", { exact: true }).fill("a-new-guest-password");
  await page.getByLabel("Repeat the password").fill("a-different-password");
  await page.getByRole("button", { name: "Create account and open the portal" }).click();
  await expect(page.getByLabel("Repeat the password")).toHaveAccessibleDescription("The two passwords differ");
  await expect(page.getByLabel("Your name")).toHaveValue("Nia New");
  expect(page.url()).not.toContain("error=");

  await page.getByLabel("Password", { exact: true }).fill("a-new-guest-password");
  await page.getByLabel("Repeat the password").fill("a-new-guest-password");
  await page.getByRole("button", { name: "Create account and open the portal" }).click();
  await expect(page).toHaveURL(/\/client\/[0-9a-f-]{36}$/);
  await expect(page.getByTestId("portal-name")).toContainText("Acme Ltd");
  await expect(page.getByTestId("signed-in-as")).toHaveText("Nia New");

  await expect(page).toHaveTitle(/^Acme Ltd.* · Client Portals$/);

  // The link works once: afterwards 410 Gone, with a page that says so.
  const used = await page.goto(link!);
  expect(used?.status()).toBe(410);
  await expect(page.getByRole("heading", { name: "Invitation already used" })).toBeVisible();
  await expect(page).toHaveTitle("Invitation already used · Client Portals");
});

test("an unknown invitation link is a 404 with its own page", async ({ page }) => {
  const response = await page.goto("/invite/no-such-invitation-token");
  expect(response?.status()).toBe(404);
  await expect(page.getByRole("heading", { name: "Invitation not found" })).toBeVisible();
});
