import { crc32, deflateSync } from "node:zlib";
import { expect, test, type Page } from "@playwright/test";
import { e2eDatabase } from "./server-env";
import { authorizeNewClient, callbackServer, expectStackedRow, seriousAxeFindings, signIn, saveScreenshot } from "./support";

// Organization settings as the demo admin: members (last admin protected, a role changed, a
// colleague invited who accepts and sees the portals), workflow states, default guest
// permissions applied to a newly invited guest, and the notification settings of a guest.

test.describe.configure({ mode: "serial" });
// Several sign-ins and settings round trips on a slow machine.
test.setTimeout(180_000);
const callback = callbackServer();
const NEW_MEMBER = `colleague-${Date.now()}@demo.test`;

/** Axe and a screenshot at a laptop's and a phone's size, in the light and the dark colour scheme. */
async function look(page: Page, name: string) {
  for (const colorScheme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme });
    for (const size of [
      { width: 1280, height: 800 },
      { width: 390, height: 844 },
    ]) {
      await page.setViewportSize(size);
      expect(await seriousAxeFindings(page), `${name} (${colorScheme}) at ${size.width}x${size.height}`).toEqual([]);
      const suffix = colorScheme === "dark" ? "-dark" : "";
      await saveScreenshot(page, `${name}-${size.width}x${size.height}${suffix}`, { fullPage: true });
    }
  }
  await page.emulateMedia({ colorScheme: "light" });
  await page.setViewportSize({ width: 1280, height: 800 });
  // A frame at this size, as a real window shows one after each resize (resize observers see it).
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
}

/** A real PNG logo: a 160×40 bar in the given colour with a white square, as an upload would be. */
function pngLogo(rgb: [number, number, number]): Buffer {
  const [w, h] = [160, 40];
  const rows = Buffer.alloc((w * 3 + 1) * h);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const white = x > 10 && x < 30 && y > 10 && y < 30;
      rows.set(white ? [255, 255, 255] : rgb, y * (w * 3 + 1) + 1 + x * 3);
    }
  }
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, "ascii"), data]);
    const out = Buffer.alloc(8 + data.length + 4);
    out.writeUInt32BE(data.length, 0);
    body.copy(out, 4);
    out.writeUInt32BE(crc32(body), 8 + data.length);
    return out;
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(w, 0);
  ihdr.writeUInt32BE(h, 4);
  ihdr.set([8, 2, 0, 0, 0], 8);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", ihdr),
    chunk("IDAT", deflateSync(rows)),
    chunk("IEND", Buffer.alloc(0)),
  ]);
}

/** Where the settings tabs' current tab is: "in view" when inside the row and under neither fade. */
async function currentTabShown(page: Page): Promise<string> {
  return page.getByTestId("nav-tabs").evaluate((nav) => {
    const tab = nav.querySelector('[aria-current="page"]')!.getBoundingClientRect();
    const row = nav.getBoundingClientRect();
    if (tab.left < row.left - 1 || tab.right > row.right + 1) return `outside the row: ${tab.left}–${tab.right} in ${row.left}–${row.right}`;
    for (const fade of nav.parentElement!.querySelectorAll("[data-testid^='tabs-more-']")) {
      const f = fade.getBoundingClientRect();
      if (f.left < tab.right - 1 && tab.left < f.right - 1)
        return `under ${fade.getAttribute("data-testid")}: ${tab.left}–${tab.right}, the fade ${f.left}–${f.right}`;
    }
    return "in view";
  });
}

async function admin(page: Page, path: string) {
  await page.goto("/sign-in");
  await signIn(page, "admin@demo.test");
  await expect(page.getByRole("heading", { name: "Portals" })).toBeVisible();
  await page.getByRole("link", { name: "Settings", exact: true }).click();
  await expect(page.getByRole("heading", { name: "Organization profile" })).toBeVisible();
  await page.getByRole("navigation", { name: "Organization settings" }).getByRole("link", { name: path }).click();
}

test("members: the last admin is protected, a role changes, an invited colleague joins and sees the portals", async ({ page }) => {
  await admin(page, "Members");
  await look(page, "settings-members");
  // On a phone each member's row reads as one unit: name and email, then the role, its button and
  // the row's menu on one line, the menu at the row's end, nothing wider than the screen.
  await page.setViewportSize({ width: 390, height: 844 });
  for (const row of await page.getByTestId("member-row").all()) {
    const email = (await row.getAttribute("aria-label"))!;
    await expectStackedRow(row, row.getByRole("combobox", { name: `Role of ${email}` }), row.getByRole("button", { name: `Actions for ${email}` }), email);
  }
  await page.setViewportSize({ width: 1280, height: 800 });
  const me = page.getByRole("row", { name: "admin@demo.test" });
  // No red button on every row: Remove is in the row's menu.
  await expect(page.getByRole("row").getByRole("button", { name: /^Remove/ })).toHaveCount(0);
  await me.getByRole("button", { name: "Actions for admin@demo.test" }).click();
  await page.getByRole("menuitem", { name: "Remove" }).click();
  // Removal asks first: Cancel changes nothing, confirming submits.
  const ask = page.getByRole("alertdialog", { name: "Remove admin@demo.test?" });
  await expect(ask).toContainText("lose access to this organization");
  await look(page, "settings-members-confirm-remove");
  await ask.getByRole("button", { name: "Cancel" }).click();
  await expect(ask).toHaveCount(0);
  await expect(me.getByRole("alert")).toHaveCount(0);
  await me.getByRole("button", { name: "Actions for admin@demo.test" }).click();
  await page.getByRole("menuitem", { name: "Remove" }).click();
  await ask.getByRole("button", { name: "Remove member" }).click();
  await expect(me.getByRole("alert")).toContainText("An organization needs at least one admin");
  await me.getByRole("combobox", { name: "Role of admin@demo.test" }).selectOption("member");
  await me.getByRole("button", { name: "Change role of admin@demo.test" }).click();
  // The role's own message (the refused removal's stays in its cell beside it).
  await expect(me.getByRole("cell", { name: /^Role of admin@demo\.test/ }).getByRole("alert")).toContainText("at least one admin");
  // The row's select and its button are one height.
  const select = await me.getByRole("combobox", { name: "Role of admin@demo.test" }).boundingBox();
  const button = await me.getByRole("button", { name: "Change role of admin@demo.test" }).boundingBox();
  expect(Math.round(button!.height), "Change role is as tall as the select beside it").toBe(Math.round(select!.height));
  expect(Math.round(button!.y), "and level with it").toBe(Math.round(select!.y));

  // A role change, and back.
  const member = page.getByRole("row", { name: "member@demo.test" });
  await member.getByRole("combobox", { name: "Role of member@demo.test" }).selectOption("admin");
  await member.getByRole("button", { name: "Change role of member@demo.test" }).click();
  await expect(member.getByRole("status")).toHaveText("Role changed to admin.");
  await page.reload();
  await expect(page.getByRole("row", { name: "member@demo.test" }).getByRole("combobox", { name: "Role of member@demo.test" })).toHaveValue("admin");
  await page.getByRole("row", { name: "member@demo.test" }).getByRole("combobox", { name: "Role of member@demo.test" }).selectOption("member");
  await page.getByRole("row", { name: "member@demo.test" }).getByRole("button", { name: "Change role of member@demo.test" }).click();
  await expect(page.getByRole("row", { name: "member@demo.test" }).getByRole("status")).toHaveText("Role changed to member.");

  // Invite a colleague.
  await page.getByLabel("Email address").fill(NEW_MEMBER);
  await page.getByRole("button", { name: "Send invitation" }).click();
  await expect(page.getByText(`Invitation sent to ${NEW_MEMBER}.`)).toBeVisible();
  await expect(page.getByTestId("invitation-row")).toContainText(NEW_MEMBER);
  // On a phone the invitation's role, expiry and Withdraw share a line under its email, and the
  // table's caption spans the table.
  await page.setViewportSize({ width: 390, height: 844 });
  const invitation = page.getByTestId("invitation-row").filter({ hasText: NEW_MEMBER });
  await expect(invitation).toContainText("Member");
  await expect(invitation).toContainText("Expires");
  await expectStackedRow(invitation, invitation.getByRole("cell").nth(1), invitation.getByRole("button", { name: /^Withdraw/ }), `invitation to ${NEW_MEMBER}`);
  const invitations = page.getByRole("region", { name: "Pending invitations" });
  const [caption, region] = await Promise.all([invitations.locator("caption").boundingBox(), invitations.boundingBox()]);
  expect(caption!.width, "the caption is as wide as its table").toBeGreaterThanOrEqual(region!.width - 4);
  await page.setViewportSize({ width: 1280, height: 800 });

  await page.context().clearCookies();
  await page.goto("/dev/mailbox");
  const texts = await page.getByTestId("mail-text").allTextContents();
  const link = texts.find((t) => t.includes("/join/") && t.includes("Demo Accounting LLP"))?.match(/https?:\/\/\S+\/join\/[A-Za-z0-9_-]+/)?.[0];
  expect(link, "the captured invitation holds a join link").toBeTruthy();
  await page.goto(link!);
  await expect(page.getByText("Join Demo Accounting LLP as a member")).toBeVisible();
  await look(page, "settings-join");
  await page.getByLabel("Your name").fill("Casey Colleague");
  await page.getByLabel("Password", { exact: true }).fill("a-colleague-password");
  await page.getByLabel("Repeat the password").fill("a-colleague-password");
  await page.getByRole("button", { name: "Create account and join" }).click();
  await expect(page).toHaveURL(/\/org\/[0-9a-f-]{36}$/);
  await expect(page.getByTestId("signed-in-as")).toHaveText("Casey Colleague");
  await expect(page.getByTestId("portal-row").first()).toContainText("Acme Ltd");
  // The link works once.
  await page.goto(link!);
  await expect(page.getByText("Invitation already used")).toBeVisible();
});

test("workflow states: add, reorder, and remove; a used one is refused with its portals named", async ({ page }) => {
  await admin(page, "Workflow states");
  await page.getByLabel("Name", { exact: true }).fill("Quality check");
  await page.getByRole("button", { name: "Add state" }).click();
  const states = page.getByTestId("workflow-state");
  await expect(states.last()).toHaveAccessibleName("Quality check");
  await page.getByRole("button", { name: "Move up Quality check" }).click();
  await expect(states.nth(3)).toHaveAccessibleName("Quality check");
  await expect(states.nth(4)).toHaveAccessibleName("Complete");
  await look(page, "settings-workflow-states");
  // Every row's name field is as wide, whichever moves the row has.
  const widths = await states.getByRole("textbox").evaluateAll((els) => els.map((el) => Math.round(el.getBoundingClientRect().width)));
  expect(new Set(widths).size, `name fields' widths ${widths.join(", ")}`).toBe(1);

  const used = page.getByRole("listitem", { name: "Waiting on client" });
  await expect(states.getByRole("button", { name: /^Remove/ })).toHaveCount(0);
  await used.getByRole("button", { name: "Actions for Waiting on client" }).click();
  await page.getByRole("menuitem", { name: "Remove" }).click();
  await page.getByRole("alertdialog", { name: "Remove the state “Waiting on client”?" }).getByRole("button", { name: "Remove state" }).click();
  await expect(used.getByRole("alert")).toContainText("Acme Ltd");
  await page.getByRole("listitem", { name: "Quality check" }).getByRole("button", { name: "Actions for Quality check" }).click();
  await page.getByRole("menuitem", { name: "Remove" }).click();
  const ask = page.getByRole("alertdialog", { name: "Remove the state “Quality check”?" });
  await look(page, "settings-workflow-states-confirm-remove");
  await ask.getByRole("button", { name: "Cancel" }).click();
  await expect(page.getByRole("listitem", { name: "Quality check" })).toHaveCount(1);
  await page.getByRole("listitem", { name: "Quality check" }).getByRole("button", { name: "Actions for Quality check" }).click();
  await page.getByRole("menuitem", { name: "Remove" }).click();
  await ask.getByRole("button", { name: "Remove state" }).click();
  await expect(page.getByRole("listitem", { name: "Quality check" })).toHaveCount(0);
  await expect(states).toHaveCount(4);
});

test("default guest permissions are given to a guest invited afterwards", async ({ page, request }) => {
  await admin(page, "Guest defaults");
  await page.getByLabel("Upload files").uncheck();
  await page.getByLabel("Delete their own uploads").check();
  await page.getByRole("button", { name: "Save defaults" }).click();
  await expect(page.getByRole("status")).toContainText("Saved.");
  await look(page, "settings-guest-defaults");
  // Narrowed after it was opened (a window resized, a tablet turned), the tabs scroll the current
  // one back into view, clear of the fades that say more tabs are there.
  await page.setViewportSize({ width: 390, height: 844 });
  await expect.poll(() => currentTabShown(page)).toBe("in view");
  await page.setViewportSize({ width: 1280, height: 800 });

  // authorizeNewClient signs in afresh.
  await page.context().clearCookies();
  const { accessToken } = await authorizeNewClient(page, request, { name: "Defaults bot", redirectUri: callback.uri, scopes: ["portal:read", "guest:invite"] });
  const headers = { Authorization: `Bearer ${accessToken}` };
  const portals = (await (await request.get("/api/v1/portals", { headers })).json()) as Array<{ id: string; name: string }>;
  const acme = portals.find((p) => p.name.includes("Acme Ltd"))!;
  const email = `defaults-${Date.now()}@client.test`;
  expect((await request.post(`/api/v1/portals/${acme.id}/guests`, { headers, data: { email } })).status()).toBe(201);

  const db = await e2eDatabase();
  try {
    const row = await db.query<{ permissions: unknown }>(`SELECT g.permissions FROM "PortalGuest" g JOIN "User" u ON u.id = g."userId" WHERE u.email = $1`, [
      email,
    ]);
    expect(row.rows[0]?.permissions).toEqual({ view: true, download: true, upload: false, delete: true });
    // Back to the demo's defaults for the specs after this one.
    await db.query(
      `UPDATE "Organization" SET "defaultGuestPermissions" = '{"view": true, "download": true, "upload": true, "delete": false}' WHERE name = 'Demo Accounting LLP'`,
    );
  } finally {
    await db.end();
  }
});

test("profile, and a guest's own notification settings", async ({ page }) => {
  await admin(page, "Profile");
  // The picker and the hex field follow each other; the contrast with white shows as it changes.
  const hex = page.getByRole("textbox", { name: "Brand colour", exact: true });
  const picker = page.getByLabel("Pick the brand colour");
  const contrast = page.getByTestId("brand-contrast");
  await expect(contrast).toContainText("Contrast with white: 8.");
  await picker.fill("#0b5394");
  await expect(hex).toHaveValue("#0b5394");
  await expect(contrast).toHaveText(/^Contrast with white: 7\.\d\d:1 .*reads well/);
  await hex.fill("#ffee00");
  await expect(picker).toHaveValue("#ffee00");
  await expect(contrast).toContainText("Contrast with white: 1.");
  await expect(contrast).toContainText("need at least 4.5:1");
  await expect(hex).toHaveAttribute("aria-invalid", "true");
  await page.getByRole("button", { name: "Save profile" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "too light" })).toBeVisible();
  await expect(page.getByTestId("org-plan")).toHaveText("enterprise");
  // The profile's fields are one width.
  const nameWidth = (await page.locator("#org-name").boundingBox())!.width;
  expect(Math.round((await page.locator("#org-time-zone").boundingBox())!.width)).toBe(Math.round(nameWidth));
  await look(page, "settings-profile");
  // A dark enough colour becomes the pages' brand colour; then back to the product's.
  await hex.fill("#0B5394");
  await page.getByRole("button", { name: "Save profile" }).click();
  await expect(page.getByRole("status")).toHaveText("Saved.");
  await page.reload();
  await expect(page.locator("[style*='--color-brand']").first()).toHaveAttribute("style", /--color-brand:\s*#0b5394/);
  await hex.fill("");
  await page.getByRole("button", { name: "Save profile" }).click();
  await expect(page.getByRole("status")).toHaveText("Saved.");

  await page.context().clearCookies();
  await page.goto("/sign-in");
  await signIn(page, "guest@demo.test");
  await page.waitForURL((url) => !url.pathname.startsWith("/sign-in"));
  await page.goto("/account/notifications");
  await page.getByTestId("notify-uploads").getByLabel("Off").check();
  await page.getByTestId("notify-reminders").getByLabel("Daily digest").check();
  await page.getByRole("button", { name: "Save", exact: true }).click();
  await expect(page.getByRole("status")).toContainText("Saved.");
  await page.reload();
  await expect(page.getByTestId("notify-uploads").getByLabel("Off")).toBeChecked();
  await expect(page.getByTestId("notify-reminders").getByLabel("Daily digest")).toBeChecked();
  await look(page, "settings-notifications");
});

test("logo: an SVG is refused, a PNG shows in the header of the organization's pages and a guest's portal", async ({ page, request }) => {
  await admin(page, "Profile");
  const orgId = new URL(page.url()).pathname.split("/")[2]!;
  // A retry starts from no logo too, whatever the failed attempt left.
  const remove = page.getByRole("button", { name: "Remove logo" });
  if (await remove.isVisible()) await remove.click();
  await expect(page.getByText("No logo yet")).toBeVisible();
  await page
    .getByLabel("Logo image")
    .setInputFiles({ name: "logo.svg", mimeType: "image/svg+xml", buffer: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>') });
  // Said before it is sent; the server refuses it too.
  await expect(page.getByTestId("logo-problem")).toContainText("not a PNG or JPEG");
  await page.getByRole("button", { name: "Upload logo" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "must be a PNG or JPEG" })).toBeVisible();

  // Dropped on the zone: shown before it is uploaded.
  const drop = await page.evaluateHandle(
    (bytes) => {
      const transfer = new DataTransfer();
      transfer.items.add(new File([new Uint8Array(bytes)], "logo.png", { type: "image/png" }));
      return transfer;
    },
    [...pngLogo([11, 83, 148])],
  );
  await page.getByTestId("logo-drop-zone").dispatchEvent("drop", { dataTransfer: drop });
  await expect(page.getByTestId("logo-drop-zone")).toContainText("logo.png");
  await expect(page.getByTestId("logo-problem")).toHaveCount(0);
  // The server's refusal of the SVG went with the SVG: no error stays beside a valid choice.
  await expect(page.getByRole("alert").filter({ hasText: "must be a PNG or JPEG" })).toHaveCount(0);
  await expect.poll(() => page.getByTestId("logo-choice-preview").evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(160);
  await look(page, "settings-profile-logo-chosen");
  await page.getByRole("button", { name: "Upload logo" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Logo saved." })).toBeVisible();
  await page.reload();
  const header = page.getByTestId("org-logo");
  await expect(header).toHaveAttribute("src", new RegExp(`^/org/${orgId}/logo/[0-9a-f]{64}$`));
  // Loaded from our own origin under the CSP: the image really decoded.
  await expect.poll(() => header.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(160);
  const src = (await header.getAttribute("src"))!;
  const served = await request.get(src);
  expect(served.status()).toBe(200);
  expect(served.headers()["content-type"]).toBe("image/png");
  await look(page, "settings-profile-logo");

  // A guest's portal page carries it too.
  await page.context().clearCookies();
  await page.goto("/sign-in");
  await signIn(page, "guest@demo.test");
  await page.waitForURL((url) => !url.pathname.startsWith("/sign-in"));
  const db = await e2eDatabase();
  try {
    const portal = await db.query<{ id: string }>(
      `SELECT p.id FROM "Portal" p JOIN "PortalGuest" g ON g."portalId" = p.id JOIN "User" u ON u.id = g."userId" WHERE u.email = 'guest@demo.test' AND p."orgId" = $1 LIMIT 1`,
      [orgId],
    );
    await page.goto(`/org/${orgId}/client/${portal.rows[0]!.id}`);
  } finally {
    await db.end();
  }
  await expect(page.getByTestId("org-logo")).toHaveAttribute("src", src);
  await expect.poll(() => page.getByTestId("org-logo").evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(160);
  await look(page, "guest-portal-logo");

  // Back to no logo for the other specs.
  await page.context().clearCookies();
  await admin(page, "Profile");
  await page.getByRole("button", { name: "Remove logo" }).click();
  // The page re-renders without the logo (and without the Remove form).
  await expect(page.getByText("No logo yet")).toBeVisible();
  await expect(page.getByTestId("org-logo")).toHaveCount(0);
  expect((await request.get(src)).status()).toBe(404);
});
