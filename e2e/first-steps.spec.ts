import { expect, test, type Page } from "@playwright/test";
import { e2eDatabase } from "./server-env";
import { checkScreen, gotoStreamed, signIn, saveScreenshot } from "./support";

// A new portal and a template as the firm first sees them: a new portal's Files tab lists the
// three first steps (invite, ask, share) and ticks each once done, with one upload area and no
// second empty box; a template says what it is and has no client tabs. The portals made here are
// named "Zephyr …" and deleted after the file.

// What this file makes is removed after it: the specs after it count the demo organization's portals.
test.afterAll(async () => {
  const client = await e2eDatabase();
  try {
    await client.query(`DELETE FROM "Portal" WHERE name LIKE 'Zephyr %' OR (name LIKE 'Onboarding pack %' AND "isTemplate")`);
  } finally {
    await client.end();
  }
});

const SIZES = [
  { width: 1280, height: 800 },
  { width: 390, height: 844 },
];

async function newPortal(page: Page, name: string): Promise<string> {
  await page.goto("/sign-in");
  await signIn(page, "admin@demo.test");
  await page.getByRole("button", { name: "New portal" }).click();
  const dialog = page.getByRole("dialog", { name: "New portal" });
  await dialog.getByLabel("Name").fill(name);
  await dialog.getByRole("button", { name: "Create and open" }).click();
  await expect(page).toHaveURL(/\/vault\/[0-9a-f-]{36}\/folder\/main$/);
  return page.url();
}

test("a new portal lists its first steps, links each, and ticks the file once one is shared", async ({ page }) => {
  const run = Date.now().toString(36);
  const url = await newPortal(page, `Zephyr Northwind ${run}`);
  const steps = page.getByTestId("first-steps");
  await expect(steps).toContainText("0 of 3 done");
  await expect(steps.getByTestId("first-step")).toHaveCount(3);
  await expect(steps.locator('[data-done="true"]')).toHaveCount(0);
  // One dashed box (the upload area); the empty folder is a line of text, not a second box.
  await expect(page.getByTestId("folder-empty")).toHaveText(/This folder is empty\./);
  await expect(page.locator("main .border-dashed")).toHaveCount(1);
  for (const size of SIZES) await checkScreen(page, `first-steps-new`, size);

  await steps.getByRole("link", { name: "Create a task" }).click();
  await expect(page).toHaveURL(/\/tasks$/);
  await page.goBack();
  await steps.getByRole("link", { name: "Invite a guest" }).click();
  await expect(page).toHaveURL(/\/guests$/);
  await page.goto(url);

  await page
    .getByLabel("Choose files to upload")
    .setInputFiles([{ name: "Welcome pack.pdf", mimeType: "application/pdf", buffer: Buffer.from("%PDF-1.4 welcome") }]);
  // Once registered, the file is in the folder's table (the page refreshes after the upload).
  await expect(page.getByTestId("file-row").filter({ hasText: "Welcome pack.pdf" })).toBeVisible({ timeout: 30_000 });
  await expect(page.getByTestId("first-step").filter({ hasText: "Share a file" })).toHaveAttribute("data-done", "true");
  await expect(steps).toContainText("1 of 3 done");
  await expect(page.getByTestId("folder-empty")).toHaveCount(0);
});

test("the panel is gone once a portal has a guest, a task and a file", async ({ page }) => {
  await page.goto("/sign-in");
  await signIn(page, "admin@demo.test");
  await page.waitForURL((url) => !url.pathname.startsWith("/sign-in"));
  // The demo's first client portal has all three.
  const client = await e2eDatabase();
  let portalPath: string;
  try {
    const { rows } = await client.query<{ org: string; portal: string }>(
      `SELECT p."orgId" AS org, p.id AS portal FROM "Portal" p
       WHERE p."isTemplate" = false AND p."deletedAt" IS NULL
         AND EXISTS (SELECT 1 FROM "PortalGuest" g WHERE g."portalId" = p.id)
         AND EXISTS (SELECT 1 FROM "Task" t WHERE t."portalId" = p.id AND t."deletedAt" IS NULL)
         AND EXISTS (SELECT 1 FROM "FileEntry" f WHERE f."portalId" = p.id AND NOT f."isFolder" AND f.status = 'registered' AND f."deletedAt" IS NULL)
       ORDER BY p."createdAt" LIMIT 1`,
    );
    expect(rows).toHaveLength(1);
    portalPath = `/org/${rows[0]!.org}/vault/${rows[0]!.portal}/folder/main`;
  } finally {
    await client.end();
  }
  await gotoStreamed(page, portalPath);
  await expect(page.getByTestId("files-tab")).toBeVisible();
  await expect(page.getByTestId("first-steps")).toHaveCount(0);
});

test("a template has a badge, says what portals take from it, and has no guest or message tab", async ({ page }) => {
  const run = Date.now().toString(36);
  const client = await e2eDatabase();
  let templatePath: string;
  try {
    const { rows } = await client.query<{ org: string; id: string }>(
      `INSERT INTO "Portal" (id, "orgId", name, "isTemplate", "updatedAt")
       SELECT gen_random_uuid(), id, $1, true, now() FROM "Organization" WHERE name = 'Demo Accounting LLP' RETURNING "orgId" AS org, id`,
      [`Onboarding pack ${run}`],
    );
    templatePath = `/org/${rows[0]!.org}/vault/${rows[0]!.id}/folder/main`;
  } finally {
    await client.end();
  }
  await page.goto("/sign-in");
  await signIn(page, "admin@demo.test");
  await page.waitForURL((url) => !url.pathname.startsWith("/sign-in"));
  await page.goto(templatePath);
  const header = page.getByTestId("portal-header");
  await expect(header.getByText("Template", { exact: true })).toBeVisible();
  await expect(header).toContainText("New portals started from this template get its folders");
  const tabs = page.getByRole("navigation", { name: "Portal views" });
  await expect(tabs.getByRole("link", { name: "Files" })).toBeVisible();
  await expect(tabs.getByRole("link", { name: /^Guests/ })).toHaveCount(0);
  await expect(tabs.getByRole("link", { name: /^Messages/ })).toHaveCount(0);
  await expect(page.getByTestId("first-steps")).toHaveCount(0);
  await expect(page.getByTestId("folder-empty")).toContainText("This template is empty");
  for (const size of SIZES) await checkScreen(page, `first-steps-template`, size);
});

test("on a phone the upload area offers the camera and the files, not a drop", async ({ browser }) => {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });
  const page = await context.newPage();
  try {
    await newPortal(page, `Zephyr phone ${Date.now().toString(36)}`);
    const zone = page.getByTestId("drop-zone");
    await expect(zone.getByRole("button", { name: "Take a photo or choose a file" })).toBeVisible();
    await expect(zone.getByText("Drop files here")).toBeHidden();
    await saveScreenshot(page, "first-steps-phone-touch-390x844", { fullPage: true });
  } finally {
    await context.close();
  }
});
