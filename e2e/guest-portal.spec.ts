import { expect, test, type Page } from "@playwright/test";
import { query } from "./db";
import { authorizeNewClient, callbackServer, expectAxeClean, signIn, saveScreenshot } from "./support";

// The client's side, as the client does it in Chromium: the seeded Northwind Advisors
// portal (scripts/seed-guest.ts) gives Casey Client a task of every kind; Val Viewer may not
// download. Each page is checked on a phone and a laptop (screenshots, axe), and what the page
// says is checked against what the product recorded (the e2e server's database, e2e/db.ts).

const SIZES = [
  { width: 390, height: 844 },
  { width: 1280, height: 800 },
] as const;
const PORTAL = "Rivera Family — estate planning";
const CLIENT = "client@demo.test";
const VIEWER = "viewer@demo.test";

/** Screenshots at both sizes, nothing wider than the screen, no serious or critical axe violation. */
async function checkGuestPage(page: Page, name: string): Promise<void> {
  for (const size of SIZES) {
    await page.setViewportSize(size);
    await page.waitForLoadState("networkidle");
    const { scrollWidth, innerWidth } = await page.evaluate(() => ({ scrollWidth: document.documentElement.scrollWidth, innerWidth: window.innerWidth }));
    expect(scrollWidth, `${name} is wider than a ${innerWidth}px screen`).toBeLessThanOrEqual(innerWidth);
    await saveScreenshot(page, `guest-${name}-${size.width}x${size.height}`, { fullPage: true });
  }
  await expectAxeClean(page, name);
  await page.setViewportSize({ width: 390, height: 844 });
}

/** Signs in on a phone and opens the client's portal from the guest home. */
async function openPortal(page: Page, email: string): Promise<string> {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto("/sign-in?callbackUrl=%2Fguest");
  await signIn(page, email);
  await expect(page).toHaveURL(/\/guest$/);
  await page
    .getByTestId("home-portal")
    .filter({ hasText: PORTAL })
    .getByRole("link", { name: new RegExp(PORTAL) })
    .click();
  await expect(page).toHaveURL(/\/org\/[0-9a-f-]{36}\/client\/[0-9a-f-]{36}$/);
  await expect(page.getByTestId("portal-name")).toHaveText(PORTAL);
  return new URL(page.url()).pathname;
}

/** A completed task leaves the open list for the Done list (the page refreshes after the action). */
const doneRow = (page: Page, title: string) => page.getByTestId("guest-done-task").filter({ hasText: title });
const taskCard = (page: Page, title: string) => page.getByTestId("guest-task").filter({ has: page.getByRole("heading", { name: title }) });
/** The row's disclosure button (its name: title, type, due date, status). */
const taskButton = (page: Page, title: string) => taskCard(page, title).getByRole("heading").getByRole("button");

/** Opens the task's row in the compact list (one open at a time) and returns it. */
async function openTask(page: Page, title: string) {
  const button = taskButton(page, title);
  if ((await button.getAttribute("aria-expanded")) !== "true") await button.click();
  await expect(button).toHaveAttribute("aria-expanded", "true");
  return taskCard(page, title);
}

async function taskRow(title: string) {
  const [task] = await query<{ id: string; status: string }>(`SELECT "id", "status" FROM "Task" WHERE "title" = $1`, [title]);
  expect(task, `task ${title}`).toBeTruthy();
  return task!;
}

test("the guest home lists both firms' portals, open tasks first with due dates; pages fit a phone and pass axe", async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto("/sign-in?callbackUrl=%2Fguest");
  await signIn(page, CLIENT);
  await expect(page).toHaveURL(/\/guest$/);
  await expect(page.getByTestId("home-portal")).toHaveCount(2);
  await expect(page.getByTestId("home-portal").filter({ hasText: "Northwind Advisors" })).toContainText(PORTAL);
  await expect(page.getByTestId("home-portal").filter({ hasText: "Harbor Tax Partners" })).toContainText("Casey Client — personal tax");
  // Due first: the signature (3 days) before the file request (5 days); undated last.
  const titles = await page.getByTestId("home-task").allTextContents();
  expect(titles[0]).toContain("Sign the engagement letter");
  expect(titles.findIndex((t) => t.includes("Upload a photo ID"))).toBeGreaterThan(0);
  await checkGuestPage(page, "home");

  await page
    .getByTestId("home-portal")
    .filter({ hasText: PORTAL })
    .getByRole("link", { name: new RegExp(PORTAL) })
    .click();
  await expect(page.getByTestId("portal-name")).toHaveText(PORTAL);
  await expect(page.getByTestId("guest-task")).toHaveCount(5);
  // Keyboard: the first task's action is reachable with Tab and shows focus.
  await page.getByRole("link", { name: "Review and sign" }).focus();
  await expect(page.getByRole("link", { name: "Review and sign" })).toBeFocused();
  await checkGuestPage(page, "portal");
  // The switcher goes to the other firm's portal.
  await page.getByText("Switch portal").click();
  await page
    .getByRole("navigation", { name: "Your portals" })
    .getByRole("link", { name: /Casey Client — personal tax/ })
    .click();
  await expect(page.getByTestId("portal-name")).toHaveText("Casey Client — personal tax");
});

test("open tasks are a compact list, one open at a time, each named by title, type, due date and status; a touch phone's upload offers the camera", async ({
  browser,
}) => {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });
  const page = await context.newPage();
  try {
    const path = await openPortal(page, CLIENT);
    const rows = page.getByTestId("guest-task");
    await expect(rows).toHaveCount(5);
    const buttons = rows.getByRole("heading").getByRole("button");
    // The first (the earliest due) is open, the others are one line each.
    expect(await buttons.evaluateAll((els) => els.map((e) => e.getAttribute("aria-expanded")))).toEqual(["true", "false", "false", "false", "false"]);
    await expect(page.locator('[data-testid="guest-task-panel"]:visible')).toHaveCount(1);
    const first = buttons.first();
    await expect(first).toContainText("Sign the engagement letter");
    await expect(first).toContainText("Signature");
    await expect(first).toContainText(/Due|Overdue since/);
    await expect(page.locator(`#${await first.getAttribute("aria-controls")}`).getByRole("link", { name: "Review and sign" })).toBeVisible();
    for (const row of (await rows.all()).slice(1)) expect((await row.boundingBox())!.height, "a closed task's row").toBeLessThan(110);

    // Opening another closes the first; its panel is the region the button controls, named by it.
    const upload = taskButton(page, "Upload a photo ID");
    await expect(upload).toContainText("Files requested");
    await upload.click();
    await expect(upload).toHaveAttribute("aria-expanded", "true");
    await expect(first).toHaveAttribute("aria-expanded", "false");
    await expect(page.locator('[data-testid="guest-task-panel"]:visible')).toHaveCount(1);
    const panel = page.getByRole("region", { name: /Upload a photo ID/ });
    await expect(panel).toHaveAttribute("id", (await upload.getAttribute("aria-controls"))!);
    // On a touch screen: no drop target, a button for the camera or the files.
    await expect(panel.getByRole("button", { name: "Take a photo or choose a file" })).toBeVisible();
    await expect(panel.getByText("Drop files here")).toBeHidden();
    // The window as it is (a full-page capture resizes the emulated screen, which drops its touch pointer).
    await panel.scrollIntoViewIfNeeded();
    await saveScreenshot(page, "guest-portal-tasks-touch-390x844");
    // The keyboard closes it again.
    await upload.focus();
    await page.keyboard.press("Enter");
    await expect(upload).toHaveAttribute("aria-expanded", "false");
    await expect(page.locator('[data-testid="guest-task-panel"]:visible')).toHaveCount(0);

    // A link to one task (the request emails') opens that one.
    const form = await taskRow("Tell us about your household");
    await page.goto(`${path}#task-${form.id}`);
    await expect(taskButton(page, "Tell us about your household")).toHaveAttribute("aria-expanded", "true");
    await expect(first).toHaveAttribute("aria-expanded", "false");
    await checkGuestPage(page, "portal-tasks");
  } finally {
    await context.close();
  }
});

test("answer a question: stored, the task is done", async ({ page }) => {
  await openPortal(page, CLIENT);
  const card = await openTask(page, "Which year did you move to your current address?");
  await card.getByLabel("Your answer").fill("In 2019, from Leeds.");
  await card.getByRole("button", { name: "Send answer" }).click();
  await expect(doneRow(page, "Which year did you move")).toBeVisible();
  const task = await taskRow("Which year did you move to your current address?");
  expect(task.status).toBe("Done");
  expect(await query(`SELECT "value" FROM "TaskAnswer" WHERE "taskId" = $1`, [task.id])).toEqual([{ value: "In 2019, from Leeds." }]);
});

test("a form with a required field missing shows the error and stores nothing; completed, it is stored", async ({ page }) => {
  await openPortal(page, CLIENT);
  const title = "Tell us about your household";
  const card = await openTask(page, title);
  await card.getByLabel("Full legal name (required)").fill("Casey Rivera");
  await card.getByLabel("Marital status (required)").selectOption("Married");
  await card.getByRole("button", { name: "Send the form" }).click();
  await expect(card.getByText("This field is required")).toBeVisible();
  await expect(card.getByLabel("Number of children (required)")).toHaveAttribute("aria-invalid", "true");
  // What was typed stays; nothing was stored.
  await expect(card.getByLabel("Full legal name (required)")).toHaveValue("Casey Rivera");
  const task = await taskRow(title);
  expect(await query(`SELECT "id" FROM "TaskAnswer" WHERE "taskId" = $1`, [task.id])).toEqual([]);
  await saveScreenshot(page, "guest-form-error-390x844", { fullPage: true });

  await card.getByLabel("Number of children (required)").fill("2");
  await card.getByRole("button", { name: "Send the form" }).click();
  await expect(doneRow(page, title)).toBeVisible();
  expect((await taskRow(title)).status).toBe("Done");
  expect(await query(`SELECT count(*)::int AS n FROM "TaskAnswer" WHERE "taskId" = $1`, [task.id])).toEqual([{ n: 4 }]);
});

test("fulfil a File Request by upload: the task is done and task.completed carries the file_id", async ({ page }) => {
  await openPortal(page, CLIENT);
  const title = "Upload a photo ID";
  const card = await openTask(page, title);
  await card.locator('input[type="file"]').setInputFiles({ name: "passport.png", mimeType: "image/png", buffer: Buffer.from("89504e470d0a1a0a", "hex") });
  await expect(doneRow(page, title)).toBeVisible({ timeout: 20_000 });
  const task = await taskRow(title);
  expect(task.status).toBe("Done");
  const [file] = await query<{ id: string }>(`SELECT "id" FROM "FileEntry" WHERE "taskId" = $1 AND "name" = 'passport.png' AND "status" = 'registered'`, [
    task.id,
  ]);
  expect(file, "the upload is linked to the task").toBeTruthy();
  const events = await query<{ data: { file_id?: string; task_id: string } }>(
    `SELECT "data" FROM "Event" WHERE "type" = 'task.completed' AND "data"->>'task_id' = $1`,
    [task.id],
  );
  expect(events).toHaveLength(1);
  expect(events[0]!.data.file_id).toBe(file!.id);
  await expect(page.getByTestId("guest-file").filter({ hasText: "passport.png" })).toBeVisible();
});

test("sign a PDF with a drawn signature: the signed copy is in the portal beside the original", async ({ page }) => {
  await openPortal(page, CLIENT);
  await page.getByRole("link", { name: "Review and sign" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Sign the engagement letter" })).toBeVisible();
  await checkGuestPage(page, "sign");
  await page.getByRole("radio", { name: "Draw my signature" }).click();
  const pad = page.getByTestId("signature-pad");
  await pad.scrollIntoViewIfNeeded();
  const box = (await pad.boundingBox())!;
  await page.mouse.move(box.x + box.width * 0.1, box.y + box.height * 0.6);
  await page.mouse.down();
  for (let i = 1; i <= 20; i++) await page.mouse.move(box.x + box.width * (0.1 + i * 0.04), box.y + box.height * (0.6 - Math.sin(i / 2) * 0.3));
  await page.mouse.up();
  // Without consent the service refuses and says why.
  await page.getByRole("button", { name: "Sign the document" }).click();
  await expect(page.getByText("Tick the box to agree to sign electronically")).toBeVisible();
  expect((await taskRow("Sign the engagement letter")).status).toBe("Open");

  await page.getByLabel("I agree to sign electronically").check();
  await page.getByRole("button", { name: "Sign the document" }).click();
  await expect(page.getByText("Signed. Thank you!").or(page.getByText("This document is signed"))).toBeVisible({ timeout: 30_000 });
  await saveScreenshot(page, "guest-signed-390x844", { fullPage: true });

  const task = await taskRow("Sign the engagement letter");
  expect(task.status).toBe("Done");
  const signed = await query<{ id: string; name: string; signed: boolean }>(`SELECT "id", "name", "signed" FROM "FileEntry" WHERE "taskId" = $1`, [task.id]);
  expect(signed).toEqual([expect.objectContaining({ name: "Engagement letter (signed).pdf", signed: true })]);
  const events = await query<{ data: Record<string, unknown> }>(`SELECT "data" FROM "Event" WHERE "type" = 'file.signed' AND "data"->>'task_id' = $1`, [
    task.id,
  ]);
  expect(events).toEqual([{ data: expect.objectContaining({ file_id: signed[0]!.id, signed_by_email: CLIENT, signed_by_name: "Casey Client" }) }]);
  await page.getByRole("link", { name: "Back to the portal" }).first().click();
  await expect(page.getByTestId("guest-file").filter({ hasText: "Engagement letter (signed).pdf" })).toBeVisible();
  await expect(page.getByTestId("guest-file").filter({ hasText: /^Engagement letter\.pdf/ })).toBeVisible();
});

test("a client previews a file from the portal's list, and opens one from their home page's latest files", async ({ page }) => {
  await openPortal(page, CLIENT);
  await page.getByTestId("guest-file").getByRole("link", { name: "Engagement letter.pdf", exact: true }).click();
  await expect(page).toHaveURL(/\?file=[0-9a-f-]{36}$/);
  const preview = page.getByRole("dialog", { name: "Engagement letter.pdf" });
  await expect(preview.getByTestId("preview-body")).toHaveAttribute("data-kind", "pdf");
  await expect(preview.getByRole("link", { name: "Download" })).toBeVisible();
  await checkGuestPage(page, "file-preview");
  await preview.getByRole("button", { name: "Close" }).click();
  await expect(preview).toHaveCount(0);
  await expect(page).not.toHaveURL(/file=/);

  await page.goto("/guest");
  await page.getByTestId("home-portal").filter({ hasText: PORTAL }).getByRole("link", { name: "Engagement letter.pdf", exact: true }).click();
  await expect(page.getByRole("dialog", { name: "Engagement letter.pdf" })).toBeVisible();
});

test("mark a General task done", async ({ page }) => {
  await openPortal(page, CLIENT);
  const card = await openTask(page, "Book your review meeting");
  await card.getByRole("button", { name: "Mark as done" }).click();
  await expect(doneRow(page, "Book your review meeting")).toBeVisible();
  expect((await taskRow("Book your review meeting")).status).toBe("Done");
});

test("a guest without download permission gets no download link and the route refuses; another portal's URL is not found", async ({ page }) => {
  const path = await openPortal(page, VIEWER);
  await expect(page.getByTestId("guest-file").first()).toBeVisible();
  await expect(page.getByRole("link", { name: /^Download/ })).toHaveCount(0);
  await expect(page.getByText("downloading them is turned off")).toBeVisible();
  await checkGuestPage(page, "portal-no-download");

  const [orgId, portalId] = path.split("/").filter((p) => /^[0-9a-f-]{36}$/.test(p));
  const [file] = await query<{ id: string }>(`SELECT "id" FROM "FileEntry" WHERE "portalId" = $1 AND "isFolder" = false LIMIT 1`, [portalId]);
  const download = await page.request.get(`/org/${orgId}/vault/${portalId}/file/${file!.id}/download`, { maxRedirects: 0 });
  expect([403, 404]).toContain(download.status());
  expect(download.headers()["location"] ?? "").not.toContain("X-Amz-Signature");

  const [other] = await query<{ id: string }>(`SELECT "id" FROM "Portal" WHERE "name" = 'Northwind — internal'`);
  const response = await page.goto(`/org/${orgId}/client/${other!.id}`);
  expect(response?.status()).toBe(404);
});

test.describe("invitation on a phone", () => {
  const callback = callbackServer();

  test("a new user accepts an invitation on a phone and lands on the guest view of the portal", async ({ page, request, browser }) => {
    const { accessToken } = await authorizeNewClient(page, request, {
      name: "Phone invite",
      redirectUri: callback.uri,
      scopes: ["portal:read", "guest:invite"],
    });
    const headers = { Authorization: `Bearer ${accessToken}` };
    const portals = (await (await request.get("/api/v1/portals", { headers })).json()) as Array<{ id: string; name: string }>;
    const acme = portals.find((p) => p.name.includes("Acme Ltd"))!;
    const email = `phone-${Date.now()}@client.example`;
    expect((await request.post(`/api/v1/portals/${acme.id}/guests`, { headers, data: { email, name: "Pat Phone" } })).status()).toBe(201);
    await page.goto("/dev/mailbox");
    // The captured email addressed to the new guest (each one is a card: "To <address>").
    const mail = page
      .locator("section")
      .filter({ hasText: `To ${email}` })
      .getByTestId("mail-text")
      .first();
    const link = ((await mail.textContent()) ?? "").match(/https?:\/\/\S+\/invite\/[A-Za-z0-9_-]+/)?.[0];
    expect(link, "the invitation email holds the link").toBeTruthy();

    const phone = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    const guest = await phone.newPage();
    await guest.goto(link!);
    await saveScreenshot(guest, "guest-invitation-390x844", { fullPage: true });
    await guest.getByLabel("Your name").fill("Pat Phone");
    await guest.getByLabel("Password", { exact: true }).fill("a-long-phone-password");
    await guest.getByLabel("Repeat the password").fill("a-long-phone-password");
    await guest.getByRole("button", { name: "Create account and open the portal" }).click();
    await expect(guest).toHaveURL(new RegExp(`/client/${acme.id}$`));
    await expect(guest.getByTestId("portal-name")).toContainText("Acme Ltd");
    await checkGuestPage(guest, "after-invitation");
    await phone.close();
  });
});
