import { randomUUID } from "node:crypto";
import bcrypt from "bcryptjs";
import { expect, test, type Browser, type Page } from "@playwright/test";
import { query } from "./db";
import { LAPTOP, PORTAL, seededPortal, toast } from "./loop-support";
import { checkScreen, DEMO_PASSWORD, gotoStreamed, signIn } from "./support";

// Each person sees dates and times in their own time zone, whatever their browser's: a member in
// New York picks a due date in New York time, sees it there, and no page writes "UTC" after a
// time. Someone without a zone gets their browser's, once.

test.describe.configure({ mode: "serial" });
test.setTimeout(180_000);

const run = randomUUID().slice(0, 8);
let orgId = "";
let portalId = "";

test.beforeAll(async () => {
  ({ orgId, portalId } = await seededPortal());
});

test.afterAll(async () => {
  // The seeded portal is shared with other specs: this spec's tasks leave it.
  await query(`UPDATE "Task" SET "deletedAt" = now() WHERE "portalId" = $1 AND "title" LIKE $2`, [portalId, `%${run}`]);
});

/** A new member of the seeded portal's organization, with `timeZone` (null: none yet). */
async function newMember(timeZone: string | null): Promise<string> {
  const email = `tz-${randomUUID().slice(0, 8)}@demo.test`;
  const [user] = await query<{ id: string }>(
    `INSERT INTO "User" (id, email, name, "passwordHash", "timeZone", "updatedAt") VALUES (gen_random_uuid(), $1, 'Zoe Zone', $2, $3, now()) RETURNING id`,
    [email, await bcrypt.hash(DEMO_PASSWORD, 4), timeZone],
  );
  await query(`INSERT INTO "Membership" (id, "orgId", "userId", role) VALUES (gen_random_uuid(), $1, $2, 'member')`, [orgId, user!.id]);
  return email;
}

/** Signed in as `email` in a browser whose own zone is `browserZone`. */
async function signedInFrom(browser: Browser, email: string, browserZone: string): Promise<Page> {
  const context = await browser.newContext({ viewport: LAPTOP, timezoneId: browserZone });
  const page = await context.newPage();
  await page.goto("/sign-in");
  await signIn(page, email);
  await page.waitForURL((url) => !url.pathname.startsWith("/sign-in"));
  return page;
}

const zoneOf = async (email: string) => (await query<{ timeZone: string | null }>(`SELECT "timeZone" FROM "User" WHERE email = $1`, [email]))[0]!.timeZone;

test("a member in New York picks and sees due dates in New York time; changing the zone moves them; no page writes UTC", async ({ browser }) => {
  const email = await newMember("America/New_York");
  // The browser is in Tokyo: the member's own setting wins.
  const page = await signedInFrom(browser, email, "Asia/Tokyo");
  const tasks = `/org/${orgId}/vault/${portalId}/tasks`;
  const title = `Quarterly VAT ${run}`;

  await gotoStreamed(page, tasks);
  await page.getByTestId("new-task").click();
  const dialog = page.getByRole("dialog", { name: "New task" });
  await dialog.getByLabel("Title").fill(title);
  await expect(dialog.getByText("In your time zone, America/New_York.")).toBeVisible();
  await dialog.getByLabel(/^Due date/).fill("2031-04-15T14:05");
  await dialog.getByRole("button", { name: "Create task" }).click();
  await expect(toast(page, `Task "${title}" created`)).toBeVisible();
  // 14:05 in New York in April is 18:05 UTC (EDT, UTC−4); the API would return exactly that.
  const [task] = await query<{ id: string; due: string }>(`SELECT id, to_char("dueDate", 'YYYY-MM-DD"T"HH24:MI') AS due FROM "Task" WHERE title = $1`, [title]);
  expect(task!.due).toBe("2031-04-15T18:05");

  await gotoStreamed(page, tasks);
  const row = page.getByTestId("task-row").filter({ hasText: title });
  await expect(row).toContainText("Due 15 Apr 2031, 14:05");
  await expect(row.locator("time")).toHaveAttribute("dateTime", "2031-04-15T18:05:00.000Z");
  await expect(row.locator("time")).toHaveAttribute("title", "15 Apr 2031, 14:05:00 America/New_York (UTC−04:00)");
  await checkScreen(page, "time-zones-tasks", LAPTOP);

  // Pages with dates and times: none writes "UTC" after one (the API keeps UTC; pages do not).
  for (const path of [
    `/org/${orgId}`,
    tasks,
    `${tasks}/${task!.id}`,
    `/org/${orgId}/vault/${portalId}/history`,
    `/org/${orgId}/vault/${portalId}/guests`,
    `/org/${orgId}/vault/${portalId}/folder/main`,
    `/org/${orgId}/inbox`,
    `/org/${orgId}/requests`,
    "/account/sessions",
    "/account/two-factor",
    "/account/notifications",
  ]) {
    await gotoStreamed(page, path);
    await expect(page.locator("main").first()).not.toContainText(/\bUTC\b/);
  }
  await expect(page.getByText("07:00 in your time zone")).toBeVisible();

  // A name that is no zone is refused with the fix; a real one moves every date.
  const field = page.getByLabel("Your time zone");
  await expect(field).toHaveValue("America/New_York");
  await field.fill("Mars/Olympus");
  await page.getByRole("button", { name: "Save time zone" }).click();
  await expect(page.locator("main").getByRole("alert")).toContainText('"Mars/Olympus" is not a time zone: choose one from the list');
  expect(await zoneOf(email)).toBe("America/New_York");
  await field.fill("Asia/Tokyo");
  await page.getByRole("button", { name: "Save time zone" }).click();
  await expect(page.locator("main").getByRole("status")).toContainText("Saved. Dates and times are shown in Asia/Tokyo.");
  await checkScreen(page, "time-zones-settings", LAPTOP);
  await gotoStreamed(page, tasks);
  await expect(page.getByTestId("task-row").filter({ hasText: title })).toContainText("Due 16 Apr 2031, 03:05");
  await page.context().close();
});

test("a person without a zone gets their browser's, once; a choice is not overwritten", async ({ browser }) => {
  const email = await newMember(null);
  const page = await signedInFrom(browser, email, "Pacific/Auckland");
  await expect.poll(() => zoneOf(email)).toBe("Pacific/Auckland");
  await gotoStreamed(page, "/account/notifications");
  await expect(page.getByLabel("Your time zone")).toHaveValue("Pacific/Auckland");
  await page.context().close();

  // Signed in again from a browser elsewhere: the zone stays (it is theirs now).
  const elsewhere = await signedInFrom(browser, email, "Europe/Berlin");
  await gotoStreamed(elsewhere, `/org/${orgId}`);
  await expect(elsewhere.getByRole("link", { name: PORTAL })).toBeVisible();
  expect(await zoneOf(email)).toBe("Pacific/Auckland");
  await elsewhere.context().close();
});
