import { expect, test, type Page } from "@playwright/test";
import { e2eDatabase } from "./server-env";
import { contrastRatio, luminances, saveScreenshot, seriousAxeFindings, signIn } from "./support";

// The portal list with 1,000 portals seeded straight into the e2e database (the server writes its
// environment to E2E_SERVER_ENV_FILE, see playwright.config.ts): search, filter, sort and page
// through it; then create a portal from a template and see the template's folders in it.

test.describe.configure({ mode: "serial" });

async function seed() {
  const client = await e2eDatabase();
  try {
    const org = await client.query<{ id: string }>(`SELECT id FROM "Organization" WHERE name = 'Demo Accounting LLP'`);
    const orgId = org.rows[0]!.id;
    const done = await client.query(`SELECT 1 FROM "Portal" WHERE "orgId" = $1 AND name = 'Seed client 0001'`, [orgId]);
    if (done.rowCount) return;
    // Every 10th tagged vip, every 4th "In review", every 50th archived; created after the demo portals.
    await client.query(
      `INSERT INTO "Portal" (id, "orgId", name, tags, "workflowStateId", archived, "createdAt", "updatedAt")
       SELECT gen_random_uuid(), $1, 'Seed client ' || lpad(i::text, 4, '0'),
              CASE WHEN i % 10 = 0 THEN ARRAY['vip'] ELSE ARRAY[]::text[] END,
              CASE WHEN i % 4 = 0 THEN (SELECT id FROM "WorkflowState" WHERE "orgId" = $1 AND name = 'In review') END,
              i % 50 = 0, now() + i * interval '1 second', now()
       FROM generate_series(1, 1000) i`,
      [orgId],
    );
    const template = await client.query<{ id: string }>(
      `INSERT INTO "Portal" (id, "orgId", name, "isTemplate", "updatedAt") VALUES (gen_random_uuid(), $1, 'Year-end pack', true, now()) RETURNING id`,
      [orgId],
    );
    for (const name of ["Engagement letter", "Bank statements"]) {
      await client.query(
        `INSERT INTO "FileEntry" (id, "orgId", "portalId", "isFolder", name, "updatedAt") VALUES (gen_random_uuid(), $1, $2, true, $3, now())`,
        [orgId, template.rows[0]!.id, name],
      );
    }
  } finally {
    await client.end();
  }
}

async function look(page: Page, name: string) {
  for (const size of [
    { width: 1280, height: 800 },
    { width: 390, height: 844 },
  ]) {
    await page.setViewportSize(size);
    expect(await seriousAxeFindings(page), `axe on ${name} at ${size.width}px`).toEqual([]);
    await saveScreenshot(page, `${name}-${size.width}x${size.height}`, { fullPage: true });
  }
  await page.setViewportSize({ width: 1280, height: 800 });
}

/** Signs in as the demo admin, who lands on the portal list; the list's address without a query. */
async function adminPortalList(page: Page): Promise<string> {
  await page.goto("/sign-in");
  await signIn(page, "admin@demo.test");
  await expect(page.getByRole("heading", { name: "Portals", exact: true })).toBeVisible();
  return page.url().replace(/\?.*$/, "");
}

test.beforeAll(seed);
// The specs after this one expect the demo data as seeded.
test.afterAll(async () => {
  const client = await e2eDatabase();
  await client.query(`DELETE FROM "Portal" WHERE name LIKE 'Seed client %' OR name IN ('Year-end pack', 'Brightside Ltd')`);
  await client.end();
});

test("1,000 portals: searched, filtered, sorted and paged, every choice in the URL", async ({ page }) => {
  await page.goto("/sign-in");
  await signIn(page, "admin@demo.test");
  await expect(page.getByRole("heading", { name: "Portals" })).toBeVisible();
  const rows = page.getByTestId("portal-row");
  // Sorted by name: the demo portals first, 50 to a page.
  await expect(rows).toHaveCount(50);
  await expect(rows.first()).toContainText("Acme Ltd");
  await look(page, "list-portals");
  // At a laptop's size the filters are one row (Apply beside the fields) and the first portals
  // are on the first screen.
  await page.reload();
  await expect(rows.first()).toBeInViewport();
  const [search, apply] = await Promise.all([page.getByLabel("Search by name").boundingBox(), page.getByRole("button", { name: "Apply" }).boundingBox()]);
  expect(Math.round(apply!.y), "Apply is level with the search field").toBe(Math.round(search!.y));
  // A portal's name is a link in both schemes: underlined, another colour than the row's text,
  // 4.5:1 on its background.
  for (const colorScheme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme });
    const name = rows.first().getByRole("link", { name: /Acme Ltd/ });
    const [link, text] = await Promise.all([luminances(name), luminances(rows.first().getByRole("cell").last())]);
    expect(await name.evaluate((el) => getComputedStyle(el).textDecorationLine), `${colorScheme}: the name is underlined`).toBe("underline");
    expect(Math.abs(link.text - text.text), `${colorScheme}: the name's colour is not the text's`).toBeGreaterThan(0.02);
    expect(contrastRatio(link.text, link.background), `${colorScheme}: the name's contrast`).toBeGreaterThanOrEqual(4.5);
  }
  await page.emulateMedia({ colorScheme: "light" });

  // Page forwards twice and back once; the back button returns to the first page.
  await page.getByRole("link", { name: "Next" }).click();
  await expect(page).toHaveURL(/after=/);
  await expect(rows.first()).toContainText("Seed client 0049");
  await page.getByRole("link", { name: "Next" }).click();
  await expect(rows.first()).toContainText("Seed client 0101"); // 0050 and 0100 are archived
  await page.getByRole("link", { name: "Previous" }).click();
  await expect(rows.first()).toContainText("Seed client 0049");
  await page.goBack();
  await page.goBack();
  await expect(rows.first()).toContainText("Seed client 0049");

  // Search by name.
  await page.goto(page.url().replace(/\?.*$/, ""));
  await page.getByLabel("Search by name").fill("client 012");
  await page.getByRole("button", { name: "Apply" }).click();
  await expect(page).toHaveURL(/q=client\+012/);
  await expect(rows).toHaveCount(10); // 0120-0129
  await expect(rows.first()).toContainText("Seed client 0120");

  // Filters: tag vip + In review + archived too; a shared link shows the same.
  await page.getByLabel("Search by name").fill("");
  await page.locator("#portal-tag").fill("vip");
  await page.locator("#portal-state").selectOption({ label: "In review" });
  await page.getByLabel("Status").selectOption("all");
  await page.getByRole("button", { name: "Apply" }).click();
  await expect(rows).toHaveCount(50); // i % 20 == 0: 50 portals, archived ones included
  await expect(page.getByRole("link", { name: "Next" })).toHaveCount(0);
  const shared = page.url();
  await page.goto(shared);
  await expect(rows).toHaveCount(50);
  await expect(page.getByTestId("portal-state").first()).toHaveText("In review");

  // Archived only, newest first.
  await page.goto("/");
  await page.goto(shared.replace(/\?.*$/, "") + "?status=archived&sort=created");
  await expect(rows).toHaveCount(20);
  await expect(rows.first()).toContainText("Seed client 1000");
  await expect(rows.first()).toContainText("Archived");

  // Nothing matches: the empty state says what to do.
  await page.goto(shared.replace(/\?.*$/, "") + "?q=no-such-client");
  await expect(page.getByText("No portals match these filters")).toBeVisible();
  await look(page, "list-portals-empty");
});

test("the name search follows typing, the total is shown, templates are a tab, and the next due date has a column", async ({ page }) => {
  await page.goto("/sign-in");
  await signIn(page, "admin@demo.test");
  const rows = page.getByTestId("portal-row");
  await expect(rows).toHaveCount(50);
  // The total of every page, not the page's length.
  const client = await e2eDatabase();
  const { rows: counted } = await client.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM "Portal" p JOIN "Organization" o ON o.id = p."orgId"
     WHERE o.name = 'Demo Accounting LLP' AND NOT p."isTemplate" AND NOT p.archived AND p."deletedAt" IS NULL`,
  );
  await client.end();
  expect(counted[0]!.n).toBeGreaterThan(900);
  await expect(page.getByText(`50 of ${counted[0]!.n.toLocaleString("en-US")} portals`, { exact: true })).toBeVisible();
  await expect(page.getByRole("columnheader", { name: "Next due" })).toBeVisible();

  // Typed, not applied: the list and the URL follow after a pause.
  await page.getByLabel("Search by name").pressSequentially("client 013", { delay: 30 });
  await expect(page).toHaveURL(/q=client\+013/);
  await expect(rows).toHaveCount(10);
  await expect(page.getByText(/^10 of 10 portals$/)).toBeVisible();

  const tabs = page.getByRole("navigation", { name: "Portals or templates" });
  await expect(tabs.getByRole("link", { name: "Portals" })).toHaveAttribute("aria-current", "page");
  await tabs.getByRole("link", { name: "Templates" }).click();
  await expect(page).toHaveURL(/templates=1/);
  await expect(page.getByRole("heading", { name: "Templates" })).toBeVisible();
  await expect(tabs.getByRole("link", { name: "Templates" })).toHaveAttribute("aria-current", "page");
  await expect(rows.filter({ hasText: "Year-end pack" })).toHaveCount(1);
  // The search box says what the list shows: the tab's link has no search.
  await expect(page.getByLabel("Search by name")).toHaveValue("");
  await look(page, "list-templates");
});

test("a portal's responsible member is chosen in its Settings tab and shown in the list, under the name on a phone; anyone else is refused", async ({
  page,
}) => {
  const list = await adminPortalList(page);
  await page.goto(`${list}?q=client+0151`);
  const row = page.getByTestId("portal-row").filter({ hasText: "Seed client 0151" });
  await expect(page.getByRole("columnheader", { name: "Responsible" })).toBeVisible();
  await expect(row.getByTestId("portal-responsible")).toHaveText("Nobody");

  const portal = (await row.getByRole("link", { name: "Seed client 0151" }).getAttribute("href"))!.replace(/\/folder\/main$/, "");
  await page.goto(`${portal}/settings`);
  const form = page.getByTestId("responsible-form");
  const select = form.getByLabel("Responsible member");
  await expect(select.locator("option")).toContainText(["Nobody", "Avery Admin (admin@demo.test)", "Morgan Member (member@demo.test)"]);
  // A value no member has (as a forged form would send): refused with what to do, nothing stored.
  await select.evaluate((el: HTMLSelectElement) => {
    el.options[1]!.value = "00000000-0000-4000-8000-000000000000";
  });
  await select.selectOption({ index: 1 });
  await form.getByRole("button", { name: "Save responsible member" }).click();
  await expect(form.getByText("Choose a member of this organization, or nobody")).toBeVisible();
  await expect(select).toHaveAttribute("aria-invalid", "true");

  await page.reload();
  await select.selectOption({ label: "Morgan Member (member@demo.test)" });
  await form.getByRole("button", { name: "Save responsible member" }).click();
  await expect(page.getByTestId("toast").filter({ hasText: "Morgan Member is responsible for this portal" })).toBeVisible();
  const client = await e2eDatabase();
  const { rows: stored } = await client.query<{ name: string | null }>(
    `SELECT u.name FROM "Portal" p LEFT JOIN "User" u ON u.id = p."responsibleMemberId" WHERE p.name = 'Seed client 0151'`,
  );
  const { rows: audits } = await client.query(
    `SELECT metadata FROM "AuditLog" a JOIN "Portal" p ON p.id = a."portalId" WHERE p.name = 'Seed client 0151' AND action = 'portal.responsible_changed'`,
  );
  await client.end();
  expect(stored).toEqual([{ name: "Morgan Member" }]);
  expect(audits).toEqual([{ metadata: { from: null, to: "Morgan Member" } }]);

  await page.goto(`${list}?q=client+015`);
  await expect(row.getByTestId("portal-responsible")).toHaveText("Morgan Member");
  await expect(page.getByTestId("portal-row").filter({ hasText: "Seed client 0152" }).getByTestId("portal-responsible")).toHaveText("Nobody");
  // On a phone the column gives way to a line under the name; the page stays as wide as the screen.
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(row.getByTestId("portal-responsible")).toBeHidden();
  await expect(row.getByTestId("portal-responsible-inline")).toHaveText("Responsible: Morgan Member");
  const { scrollWidth, innerWidth } = await page.evaluate(() => ({ scrollWidth: document.documentElement.scrollWidth, innerWidth: window.innerWidth }));
  expect(scrollWidth).toBeLessThanOrEqual(innerWidth);
  await look(page, "list-portals-responsible");
});

test("on a phone the first screen shows portals: filters fold behind a button that counts them, the selection bar is a line until a portal is ticked", async ({
  page,
}) => {
  const list = await adminPortalList(page);
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(`${list}?q=client+01`);
  const filters = page.getByRole("button", { name: "Filters", exact: true });
  await expect(filters).toHaveAttribute("aria-expanded", "false");
  await expect(page.getByLabel("Search by name")).toBeVisible();
  await expect(page.getByRole("combobox", { name: "Workflow state", exact: true })).toBeHidden();
  const selection = page.getByTestId("portal-selection");
  await expect(selection.getByRole("button", { name: "Archive" })).toBeHidden();
  await expect(page.getByTestId("portal-row").first()).toBeInViewport();
  const first = (await page.getByTestId("portal-row").first().boundingBox())!;
  expect(first.y + first.height, "the first portal is whole on the first screen").toBeLessThanOrEqual(844);
  await saveScreenshot(page, "list-portals-phone-first-screen");

  await filters.click();
  await expect(filters).toHaveAttribute("aria-expanded", "true");
  await expect(page.getByRole("combobox", { name: "Workflow state", exact: true })).toBeVisible();
  await page.getByTestId("portal-row").first().getByTestId("portal-select").check();
  await expect(selection.getByRole("button", { name: "Archive" })).toBeVisible();

  // A filter in force: the button counts it, and the fields are open from the start.
  await page.goto(`${list}?q=client+01&status=archived&tag=none-such`);
  await expect(page.getByRole("button", { name: "Filters (2)" })).toHaveAttribute("aria-expanded", "true");
  await expect(page.getByRole("combobox", { name: "Status", exact: true })).toHaveValue("archived");
  await look(page, "list-portals-phone-filters");
});

test("portals ticked in the list are tagged, archived and restored at once", async ({ page }) => {
  const list = await adminPortalList(page);
  await page.goto(`${list}?q=client+014`);
  const rows = page.getByTestId("portal-row");
  await expect(rows).toHaveCount(10);
  const selection = page.getByTestId("portal-selection");
  await expect(selection.getByRole("button", { name: "Archive" })).toBeDisabled();

  // The header box ticks the page; two rows unticked again leave eight.
  await page.getByTestId("portal-select-all").check();
  await expect(page.getByTestId("portal-selection-count")).toHaveText("10 selected");
  await rows.filter({ hasText: "Seed client 0148" }).getByTestId("portal-select").uncheck();
  await rows.filter({ hasText: "Seed client 0149" }).getByTestId("portal-select").uncheck();
  await expect(page.getByTestId("portal-selection-count")).toHaveText("8 selected");
  await expect(page.getByTestId("portal-select-all")).not.toBeChecked();
  await look(page, "list-selection");

  await selection.getByLabel("Tag to add to the selected portals").fill("bulk-tagged");
  await selection.getByRole("button", { name: "Add tag" }).click();
  await expect(page.getByTestId("toast").filter({ hasText: "8 portals tagged" })).toBeVisible();
  await expect(rows.filter({ hasText: "bulk-tagged" })).toHaveCount(8);
  await expect(page.getByTestId("portal-selection-count")).toHaveText("Tick portals to change several at once");

  await rows.filter({ hasText: "Seed client 0141" }).getByTestId("portal-select").check();
  await rows.filter({ hasText: "Seed client 0142" }).getByTestId("portal-select").check();
  await selection.getByRole("button", { name: "Archive" }).click();
  await expect(page.getByTestId("toast").filter({ hasText: "2 portals archived" })).toBeVisible();
  await expect(rows).toHaveCount(8);
  await expect(rows.filter({ hasText: "Seed client 0141" })).toHaveCount(0);

  await page.goto(`${list}?q=client+014&status=archived`);
  await expect(rows).toHaveCount(2);
  await page.getByTestId("portal-select-all").check();
  await selection.getByRole("button", { name: "Restore" }).click();
  await expect(page.getByTestId("toast").filter({ hasText: "2 portals restored" })).toBeVisible();
  await expect(page.getByText("No portals match these filters")).toBeVisible();
});

test("a portal created from a template opens with the template's folders", async ({ page }) => {
  await page.goto("/sign-in");
  await signIn(page, "admin@demo.test");
  await page.getByRole("button", { name: "New portal" }).click();
  const dialog = page.getByRole("dialog", { name: "New portal" });
  await dialog.getByLabel("Name").fill("Brightside Ltd");
  await dialog.getByLabel("Start from").selectOption({ label: "Template: Year-end pack" });
  await look(page, "list-create-dialog");
  await dialog.getByRole("button", { name: "Create and open" }).click();
  await expect(page).toHaveURL(/\/vault\/[0-9a-f-]{36}\/folder\/main$/);
  // In the files table (the folder tree, collapsed on a phone, names them too).
  const files = page.getByRole("table");
  await expect(files.getByText("Engagement letter")).toBeVisible();
  await expect(files.getByText("Bank statements")).toBeVisible();
});
