import { randomBytes } from "node:crypto";
import { HeadObjectCommand, S3Client } from "@aws-sdk/client-s3";
import { expect, test, type Page } from "@playwright/test";
import { e2eServerEnv } from "./server-env";
import { authorizeNewClient, callbackServer, expectAxeClean, expectStackedRow, gotoStreamed, signIn, saveScreenshot } from "./support";

// The member workspace of a portal: the header (workflow state,
// tags, archive), the Tasks, Guests, History and Settings tabs, as the demo admin uses them.
// Each tab fits a phone and passes axe; screenshots in test-results/screenshots/workspace-*.

test.describe.configure({ mode: "serial" });

const SIZES = [
  { width: 1280, height: 800 },
  { width: 390, height: 844 },
] as const;

/**
 * Once the page has loaded (no loading placeholder left: a tab's content arrives after its
 * skeleton): nothing wider than the screen, a screenshot per size, no serious or critical axe
 * violation.
 */
async function checkPage(page: Page, name: string): Promise<void> {
  await expect(page.locator("main .animate-pulse")).toHaveCount(0);
  for (const size of SIZES) {
    await page.setViewportSize(size);
    await page.waitForLoadState("networkidle");
    const { scrollWidth, innerWidth } = await page.evaluate(() => ({ scrollWidth: document.documentElement.scrollWidth, innerWidth: window.innerWidth }));
    expect(scrollWidth, `${name} is ${scrollWidth}px wide on a ${innerWidth}px screen`).toBeLessThanOrEqual(innerWidth);
    await saveScreenshot(page, `workspace-${name}-${size.width}x${size.height}`, { fullPage: true });
  }
  await expectAxeClean(page, name);
  await page.setViewportSize(SIZES[0]);
}

/** Signs in and opens the portal named like `name`; returns the portal's base path (/org/<o>/vault/<p>). */
async function openPortal(page: Page, name: RegExp, email = "admin@demo.test"): Promise<{ org: string; base: string }> {
  await page.goto("/sign-in");
  await signIn(page, email);
  await expect(page).toHaveURL(/\/org\/[0-9a-f-]{36}$/);
  const org = new URL(page.url()).pathname;
  await page.getByRole("link", { name }).click();
  await expect(page).toHaveURL(/\/folder\/main$/);
  return { org, base: new URL(page.url()).pathname.replace(/\/folder\/main$/, "") };
}

const tab = (page: Page, name: string) => page.getByRole("navigation", { name: "Portal views" }).getByRole("link", { name });
const toast = (page: Page, text: string | RegExp) => page.getByTestId("toast").filter({ hasText: text });

test("the workspace tabs fit a phone and pass axe", async ({ page }) => {
  const { base } = await openPortal(page, /Acme Ltd/);
  await expect(page.getByTestId("portal-header")).toBeVisible();
  for (const [name, label] of [
    ["tasks", "Tasks"],
    ["guests", "Guests"],
    ["history", "History"],
    ["settings", "Settings"],
  ] as const) {
    await tab(page, label).click();
    await expect(page).toHaveURL(`${base}/${name}`);
    await expect(tab(page, label)).toHaveAttribute("aria-current", "page");
    await checkPage(page, name);
  }
  await tab(page, "Tasks").click();
  await page.getByTestId("task-row").first().getByRole("link").click();
  await expect(page.getByRole("link", { name: "All tasks" })).toBeVisible();
  await checkPage(page, "task-detail");
  await gotoStreamed(page, `${base}/tasks`);
  await page.getByTestId("new-task").click();
  await expect(page.getByRole("dialog", { name: "New task" })).toBeVisible();
  await checkPage(page, "new-task-dialog");
});

test("a File Request with due date, assignees and reminders", async ({ page }) => {
  const { base } = await openPortal(page, /Acme Ltd/);
  await gotoStreamed(page, `${base}/tasks`);
  await page.getByTestId("new-task").click();
  const dialog = page.getByRole("dialog", { name: "New task" });
  await dialog.getByLabel("Type").selectOption("File Request");
  await dialog.getByLabel("Title").fill("Bank statements 2026");
  await dialog.getByLabel("Description").fill("Every account, January to December");
  // Reminders need a due date first.
  await expect(dialog.getByRole("checkbox", { name: /^Send reminders/ })).toBeDisabled();
  await dialog.getByLabel(/^Due date/).fill("2031-06-30T10:00");
  await dialog.getByRole("checkbox", { name: /^Send reminders/ }).check();
  await dialog.getByLabel("Gray Guest (guest@demo.test)").check();
  await dialog.getByLabel("Morgan Member (member@demo.test)").check();
  await dialog.getByRole("button", { name: "Create task" }).click();
  await expect(toast(page, 'Task "Bank statements 2026" created')).toBeVisible();
  await expect(dialog).toBeHidden();

  const row = page.getByTestId("task-row").filter({ hasText: "Bank statements 2026" });
  await expect(row).toContainText("File Request");
  await expect(row).toContainText("Due 30 Jun 2031");
  await expect(row).toContainText("Gray Guest");
  await expect(row).toContainText("Morgan Member");
  await expect(row).toContainText("Reminders");
  await expect(row).toContainText("Open");

  await row.getByRole("link", { name: "Bank statements 2026" }).click();
  await expect(page.getByRole("heading", { name: "Bank statements 2026" })).toBeVisible();
  await expect(page.getByText("Every account, January to December")).toBeVisible();
  await expect(page.getByText("No file yet. The client's upload to this request completes it.")).toBeVisible();
  await expect(page.getByText("No reminder point reached yet.")).toBeVisible();

  // Complete, reopen, then delete it.
  await page.getByTestId("complete-task").click();
  await expect(toast(page, "Task completed")).toBeVisible();
  await expect(page.getByTestId("reopen-task")).toBeVisible();
  await page.getByTestId("reopen-task").click();
  await expect(page.getByTestId("complete-task")).toBeVisible();
  await page.getByTestId("delete-task").click();
  await page.getByRole("alertdialog").getByRole("button", { name: "Delete task" }).click();
  await expect(page).toHaveURL(`${base}/tasks`);
  await expect(page.getByTestId("task-row").filter({ hasText: "Bank statements 2026" })).toHaveCount(0);
});

test("a Fill Form task with a required field; a bad field is refused with what to fix", async ({ page }) => {
  const { base } = await openPortal(page, /Acme Ltd/);
  await gotoStreamed(page, `${base}/tasks`);
  await page.getByTestId("new-task").click();
  const dialog = page.getByRole("dialog", { name: "New task" });
  await dialog.getByLabel("Type").selectOption("Fill Form");
  await dialog.getByLabel("Title", { exact: true }).fill("Client details");
  await dialog.getByLabel("Field 1 label").fill("Full legal name");
  await dialog.getByLabel("Field 1 required").check();
  await dialog.getByRole("button", { name: "Add field" }).click();
  await dialog.getByLabel("Field 2 label").fill("Marital status");
  await dialog.getByLabel("Field 2 type").selectOption("select");
  await dialog.getByLabel("Choices").fill("Single");
  await dialog.getByRole("button", { name: "Create task" }).click();
  await expect(dialog.getByRole("alert").filter({ hasText: "A single choice needs at least 2 options" })).toBeVisible();
  await dialog.getByLabel("Choices").fill("Single\nMarried");
  // Reorder: the choice first, then back.
  await dialog.getByRole("button", { name: "Move field 2 up" }).click();
  await expect(dialog.getByLabel("Field 1 label")).toHaveValue("Marital status");
  await dialog.getByRole("button", { name: "Move field 1 down" }).click();
  await expect(dialog.getByLabel("Field 1 label")).toHaveValue("Full legal name");
  await dialog.getByRole("button", { name: "Create task" }).click();
  await expect(toast(page, 'Task "Client details" created')).toBeVisible();

  await page.getByTestId("task-row").filter({ hasText: "Client details" }).getByRole("link").click();
  const form = page.getByTestId("task-form-fields");
  await expect(form).toContainText("Full legal name *");
  await expect(form).toContainText("Marital status");
  await expect(form).toContainText("Single choice: Single, Married");
  await expect(form).toContainText("No answer yet");
});

test("invite guests, resend, remove", async ({ page }) => {
  const { base } = await openPortal(page, /Acme Ltd/);
  await page.goto(`${base}/guests`);
  await expect(page.getByTestId("guest-row").filter({ hasText: "Gray Guest" })).toContainText("Accepted");
  const suffix = randomBytes(3).toString("hex");
  const first = `new.client-${suffix}@client.test`;
  const second = `partner-${suffix}@client.test`;
  await page.getByTestId("invite-guests").click();
  const dialog = page.getByRole("dialog", { name: "Invite guests" });
  await expect(dialog).toContainText("Download files");
  await dialog.getByLabel("Email addresses").fill("not-an-address");
  await dialog.getByRole("button", { name: "Send invitations" }).click();
  await expect(dialog.getByRole("alert")).toContainText('Invalid email address "not-an-address"');
  await dialog.getByLabel("Email addresses").fill(`${first.toUpperCase()}, ${second}\n${first}`);
  await dialog.getByRole("button", { name: "Send invitations" }).click();
  await expect(toast(page, "2 invitations sent")).toBeVisible();
  const row = page.getByTestId("guest-row").filter({ hasText: first });
  await expect(row).toContainText("Invited");
  await expect(row).toContainText("Not seen yet");
  await row.getByRole("button", { name: `Resend for ${first}` }).click();
  await expect(toast(page, `New invitation sent to ${first}`)).toBeVisible();
  // On a phone a guest and their actions share the row's first line, the actions at its end.
  await page.setViewportSize({ width: 390, height: 844 });
  await expectStackedRow(row, row.getByRole("cell").first(), row.getByRole("button", { name: `Remove ${first}` }), first);
  const [guest, state] = await Promise.all([row.getByRole("cell").first().boundingBox(), row.getByRole("cell").nth(1).boundingBox()]);
  expect(state!.y, "the state is under the guest").toBeGreaterThanOrEqual(guest!.y + guest!.height - 1);
  await page.setViewportSize({ width: 1280, height: 800 });
  await page
    .getByTestId("guest-row")
    .filter({ hasText: second })
    .getByRole("button", { name: `Remove ${second}` })
    .click();
  await page.getByRole("alertdialog").getByRole("button", { name: "Remove guest" }).click();
  await expect(toast(page, `${second} removed`)).toBeVisible();
  await expect(page.getByTestId("guest-row").filter({ hasText: second })).toHaveCount(0);
});

test("change the workflow state and see it in the history; edit tags; archive and restore", async ({ page }) => {
  const { base } = await openPortal(page, /Jordan Smith/);
  const select = page.getByTestId("workflow-select");
  await expect(select.locator("option:checked")).toHaveText("Onboarding");
  await select.selectOption({ label: "In review" });
  await expect(toast(page, "Moved to In review")).toBeVisible();

  // The tag field and its Add button are one height.
  const tagField = (await page.getByLabel("New tag").boundingBox())!;
  const addButton = (await page.getByRole("button", { name: "Add", exact: true }).boundingBox())!;
  expect(Math.round(tagField.height), "the tag field is as tall as its Add button").toBe(Math.round(addButton.height));
  await page.getByLabel("New tag").fill("priority");
  await page.getByRole("button", { name: "Add", exact: true }).click();
  await expect(page.getByTestId("tag-chip").filter({ hasText: "priority" })).toBeVisible();
  await page.getByLabel("New tag").fill("priority");
  await page.getByRole("button", { name: "Add", exact: true }).click();
  await expect(page.getByText('The portal already has the tag "priority"')).toBeVisible();
  await page.getByRole("button", { name: "Remove tag priority" }).click();
  await expect(page.getByTestId("tag-chip").filter({ hasText: "priority" })).toHaveCount(0);

  await page.getByTestId("archive-toggle").click();
  await page.getByRole("alertdialog").getByRole("button", { name: "Archive portal" }).click();
  await expect(page.getByTestId("portal-header").getByText("Archived", { exact: true })).toBeVisible();
  await page.getByTestId("archive-toggle").click();
  await page.getByRole("alertdialog").getByRole("button", { name: "Restore portal" }).click();
  await expect(page.getByTestId("portal-header").getByText("Archived", { exact: true })).toHaveCount(0);

  await tab(page, "History").click();
  await expect(page).toHaveURL(`${base}/history`);
  const rows = page.getByTestId("history-row");
  // Newest first.
  await expect(rows.nth(0)).toContainText("Restored the portal from the archive");
  await expect(rows.nth(1)).toContainText("Archived the portal");
  await expect(page.locator('[data-action="portal.workflow_changed"]').first()).toContainText("Moved the portal from “Onboarding” to “In review”");
  await expect(page.locator('[data-action="portal.workflow_changed"]').first()).toContainText("Avery Admin");
  await page.getByRole("navigation", { name: "Filter by kind" }).getByRole("link", { name: "Tasks" }).click();
  await expect(page).toHaveURL(`${base}/history?kind=task`);
  await expect(page.locator('[data-action="portal.workflow_changed"]')).toHaveCount(0);
});

const callback = callbackServer();

/** The e2e server's storage (scripts/e2e-server.ts writes its environment for this). */
function serverStorage() {
  const env = e2eServerEnv();
  const client = new S3Client({
    region: env["S3_REGION"] ?? "us-east-1",
    endpoint: env["S3_ENDPOINT"],
    forcePathStyle: true,
    credentials: { accessKeyId: env["S3_ACCESS_KEY_ID"]!, secretAccessKey: env["S3_SECRET_ACCESS_KEY"]! },
  });
  return {
    exists: async (key: string) =>
      client.send(new HeadObjectCommand({ Bucket: env["S3_BUCKET"], Key: key })).then(
        () => true,
        (e: { $metadata?: { httpStatusCode?: number } }) => (e.$metadata?.httpStatusCode === 404 ? false : Promise.reject(e)),
      ),
  };
}

test("permanently delete a portal: typed name, objects gone from storage; members have no Settings", async ({ page, request }) => {
  const { accessToken } = await authorizeNewClient(page, request, {
    name: "Workspace e2e",
    redirectUri: callback.uri,
    scopes: ["portal:write", "file:upload"],
  });
  const headers = { Authorization: `Bearer ${accessToken}` };
  const name = `Closing ${randomBytes(3).toString("hex")}`;
  const created = await request.post("/api/v1/portals", { headers, data: { name } });
  expect(created.status()).toBe(201);
  const portal = (await created.json()) as { id: string; org_id: string };
  const keys: string[] = [];
  for (const filename of ["letter.pdf", "notes.txt"]) {
    const body = Buffer.from(`bytes of ${filename}`);
    const ticket = await request.post(`/api/v1/portals/${portal.id}/files`, {
      headers,
      data: { filename, contentType: "application/octet-stream", size: body.length },
    });
    expect(ticket.status()).toBe(200);
    const { file_id, upload_url, headers: putHeaders } = (await ticket.json()) as { file_id: string; upload_url: string; headers: Record<string, string> };
    expect((await request.put(upload_url, { headers: putHeaders, data: body })).ok()).toBe(true);
    expect((await request.post(`/api/v1/portals/${portal.id}/files/complete`, { headers, data: { file_id, filename } })).status()).toBe(201);
    keys.push(`orgs/${portal.org_id}/files/${file_id}`);
  }
  const storage = serverStorage();
  for (const key of keys) expect(await storage.exists(key), key).toBe(true);

  const base = `/org/${portal.org_id}/vault/${portal.id}`;
  // A member: no Settings tab, and its URL is not found.
  await page.context().clearCookies();
  await page.goto("/sign-in");
  await signIn(page, "member@demo.test");
  await expect(page).toHaveURL(/\/org\/[0-9a-f-]{36}$/);
  await page.goto(`${base}/tasks`);
  await expect(tab(page, "Tasks")).toBeVisible();
  await expect(tab(page, "Settings")).toHaveCount(0);
  expect((await page.goto(`${base}/settings`))?.status()).toBe(404);

  await page.context().clearCookies();
  await page.goto("/sign-in");
  await signIn(page, "admin@demo.test");
  await expect(page).toHaveURL(/\/org\/[0-9a-f-]{36}$/);
  await page.goto(`${base}/settings`);
  await page.getByTestId("delete-portal").click();
  const confirm = page.getByRole("alertdialog");
  const button = confirm.getByRole("button", { name: "Delete permanently" });
  await expect(button).toBeDisabled();
  await confirm.getByTestId("confirm-input").fill(name.toUpperCase());
  await expect(button).toBeDisabled();
  await confirm.getByTestId("confirm-input").fill(name);
  await button.click();
  await expect(page).toHaveURL(`/org/${portal.org_id}`);
  await expect(toast(page, `"${name}" was deleted with its 2 stored files`)).toBeVisible();
  await expect(page.getByRole("link", { name })).toHaveCount(0);
  for (const key of keys) expect(await storage.exists(key), key).toBe(false);
  expect((await page.goto(`${base}/folder/main`))?.status()).toBe(404);
});
