import { randomBytes, randomUUID } from "node:crypto";
import { expect, test, type Page } from "@playwright/test";

import { startWebhookReceiver, type WebhookReceiver } from "../../lib/webhooks/test-support/webhook-receiver.ts";
import { query } from "../db";
import { withDb } from "../files-support";
import { authorizeNewClient, callbackServer, saveScreenshot, seriousAxeFindings, signIn } from "../support";
import { bodyOf, until } from "./support";

// A bulk request end to end, against the production build and the local executor: a member filters
// the portal list by a tag, sends one File Request to every matching portal (the button pressed
// twice), and follows its progress; the job makes one task per portal through the outbox, the API
// lists exactly one such task per portal and the webhook receiver gets one task.created per task.

test.describe.configure({ mode: "serial" });

const callback = callbackServer();
const tag = `bulk-${randomBytes(3).toString("hex")}`;
const title = `Year-end documents ${tag}`;
const PORTALS = 200;
let headers: { Authorization: string };
let receiver: WebhookReceiver;
let orgId: string;
let portalIds: string[];

test.beforeAll(async ({ browser }) => {
  await until("the executor to sync the app", (s) => (s.functions.includes("client-portals-bulk-request") ? true : undefined), 60_000);
  const context = await browser.newContext();
  const { accessToken } = await authorizeNewClient(await context.newPage(), context.request, {
    name: "Bulk e2e",
    redirectUri: callback.uri,
    scopes: ["portal:read", "portal:write", "task:read", "webhook:manage"],
  });
  headers = { Authorization: `Bearer ${accessToken}` };
  await context.close();
  receiver = await startWebhookReceiver();

  // The portals, each with a guest, and one more with the tag but no guest (skipped, with why).
  const [member] = await query<{ orgId: string }>(
    `SELECT m."orgId" FROM "Membership" m JOIN "User" u ON u."id" = m."userId" WHERE u."email" = 'member@demo.test'`,
  );
  orgId = member!.orgId;
  portalIds = Array.from({ length: PORTALS }, () => randomUUID());
  const userIds = portalIds.map(() => randomUUID());
  await withDb(async (db) => {
    await db.query(
      `INSERT INTO "Portal" ("id", "orgId", "name", "tags", "createdAt", "updatedAt")
       SELECT p.id, $2::uuid, 'Bulk client ' || lpad(p.n::text, 3, '0'), ARRAY[$3], now(), now()
       FROM unnest($1::uuid[]) WITH ORDINALITY AS p(id, n)`,
      [portalIds, orgId, tag],
    );
    await db.query(
      `INSERT INTO "User" ("id", "email", "name", "createdAt", "updatedAt")
       SELECT u.id, 'guest-' || u.id || '@bulk.test', 'Bulk guest', now(), now() FROM unnest($1::uuid[]) AS u(id)`,
      [userIds],
    );
    await db.query(
      `INSERT INTO "PortalGuest" ("id", "orgId", "portalId", "userId", "permissions", "acceptedAt")
       SELECT gen_random_uuid(), $3::uuid, g.portal, g.guest, '{"view": true, "download": true, "upload": true, "delete": false}', now()
       FROM unnest($1::uuid[], $2::uuid[]) AS g(portal, guest)`,
      [portalIds, userIds, orgId],
    );
    await db.query(
      `INSERT INTO "Portal" ("id", "orgId", "name", "tags", "createdAt", "updatedAt") VALUES (gen_random_uuid(), $1::uuid, 'Bulk client without guests', ARRAY[$2], now(), now())`,
      [orgId, tag],
    );
  });
});

test.afterAll(async () => {
  await receiver?.close();
});

async function look(page: Page, name: string) {
  for (const size of [
    { width: 1280, height: 800 },
    { width: 390, height: 844 },
  ]) {
    await page.setViewportSize(size);
    const { scrollWidth, innerWidth } = await page.evaluate(() => ({ scrollWidth: document.documentElement.scrollWidth, innerWidth: window.innerWidth }));
    expect(scrollWidth, `${name} is wider than the ${innerWidth}px screen`).toBeLessThanOrEqual(innerWidth);
    await saveScreenshot(page, `${name}-${size.width}x${size.height}`, { fullPage: true });
  }
  expect(await seriousAxeFindings(page), `axe on ${name}`).toEqual([]);
  await page.setViewportSize({ width: 1280, height: 800 });
}

test("a member sends one request to the 200 portals of a tag in one action, once however often pressed", async ({ page, request }) => {
  test.setTimeout(240_000);
  const hook = await request.post("/api/v1/webhooks", { headers, data: { url: receiver.url, events: ["task.created"] } });
  expect(hook.status(), await hook.text()).toBe(201);

  await page.goto("/sign-in");
  await signIn(page, "member@demo.test");
  await expect(page).toHaveURL(/\/org\/[0-9a-f-]{36}$/);
  await page.goto(`/org/${orgId}?tag=${tag}`);
  await expect(page.getByTestId("portal-row")).toHaveCount(50);
  await page.getByTestId("bulk-request").click();
  const dialog = page.getByRole("dialog");
  await expect(dialog.getByText(`Every portal matching tag “${tag}”, on every page`)).toBeVisible();
  await dialog.getByLabel("Type").selectOption("File Request");
  await dialog.getByLabel("Title").fill(title);
  await dialog.getByLabel("Description").fill("Bank statements, P60 and receipts for the year.");
  await dialog.getByLabel("Days after sending").check();
  await dialog.getByLabel("Days", { exact: true }).fill("14");
  await look(page, "bulk-request-dialog");

  // Pressed twice: both submissions carry the dialog's key.
  await dialog.getByTestId("bulk-request-form").evaluate((form: HTMLFormElement) => {
    form.requestSubmit();
    form.requestSubmit();
  });
  await page.waitForURL(/\/requests\/[0-9a-f-]{36}$/);
  await expect(page.getByTestId("bulk-sent")).toHaveText(String(PORTALS), { timeout: 120_000 });
  await expect(page.getByTestId("bulk-skipped")).toHaveText("1");
  await expect(page.getByTestId("bulk-pending")).toHaveText("0");
  // The run's `finish` step comes after the last portal's commit, once the job engine reaches it
  // behind the work the 200 tasks started (their notices and this webhook's deliveries): on a
  // slow machine, more than the 10 s an expectation waits by default.
  await expect(page.getByText("Finished")).toBeVisible({ timeout: 60_000 });
  await expect(page.getByRole("row", { name: /Bulk client without guests/ })).toContainText("The portal has no guests");
  await look(page, "bulk-request-progress");

  const bulks = await query<{ id: string; total: number }>(`SELECT "id", "total" FROM "BulkRequest" WHERE "orgId" = $1::uuid AND "spec"->>'title' = $2`, [
    orgId,
    title,
  ]);
  expect(bulks).toEqual([{ id: page.url().split("/").pop(), total: PORTALS + 1 }]);

  // The API lists exactly one such task in each portal.
  const taskIds: string[] = [];
  for (const portalId of portalIds) {
    const res = await request.get(`/api/v1/portals/${portalId}/tasks`, { headers });
    expect(res.status()).toBe(200);
    const body = (await res.json()) as
      | { items?: Array<{ id: string; title: string; action_type: string; assignees: unknown[] }> }
      | Array<{ id: string; title: string; action_type: string; assignees: unknown[] }>;
    const items = (Array.isArray(body) ? body : body.items!).filter((t) => t.title === title);
    expect(items, `tasks of ${portalId}`).toHaveLength(1);
    expect(items[0]).toMatchObject({ action_type: "File Request", assignees: [expect.objectContaining({ type: "guest" })] });
    taskIds.push(items[0]!.id);
  }

  // One task.created per task at the webhook receiver, and no more after a quiet moment.
  const created = () => receiver.requests.filter((r) => bodyOf(r).event === "task.created" && bodyOf(r).title === title);
  await expect.poll(() => created().length, { timeout: 90_000 }).toBe(PORTALS);
  await new Promise((r) => setTimeout(r, 2000));
  expect(created()).toHaveLength(PORTALS);
  expect(new Set(created().map((r) => bodyOf(r).task_id))).toEqual(new Set(taskIds));

  // The list of bulk requests shows it finished.
  await page.goto(`/org/${orgId}/requests`);
  await expect(page.getByRole("row", { name: new RegExp(title) })).toContainText(`${PORTALS} / 1 / 0 of ${PORTALS + 1}`);
  await look(page, "bulk-requests-list");
});

test("a portal's recurring request shows its next occurrence and pauses; a template's request list becomes tasks of a new portal", async ({
  page,
  request,
}) => {
  await page.goto("/sign-in");
  await signIn(page, "member@demo.test");
  await expect(page).toHaveURL(/\/org\/[0-9a-f-]{36}$/);

  await page.goto(`/org/${orgId}/vault/${portalIds[0]}/tasks`);
  await page.getByTestId("new-recurring-request").click();
  const dialog = page.getByRole("dialog");
  await dialog.getByLabel("Type").selectOption("File Request");
  await dialog.getByLabel("Title").fill("Monthly bank statements");
  await dialog.getByLabel("Days after each occurrence").check();
  await dialog.getByLabel("Days", { exact: true }).fill("10");
  await dialog.getByLabel("Repeats").selectOption("monthly");
  await dialog.getByLabel("On day of the month").fill("5");
  await look(page, "recurring-request-dialog");
  await dialog.getByRole("button", { name: "Save" }).click();
  const row = page.getByTestId("recurring-row");
  await expect(row).toContainText("Every month on day 5");
  await expect(row.getByTestId("next-occurrence")).toHaveText(/^Next: \d{1,2} \w{3} \d{4}$/);
  await look(page, "recurring-requests");
  await row.getByRole("button", { name: "Pause: Monthly bank statements" }).click();
  await expect(row).toContainText("Paused");
  await expect(row.getByTestId("next-occurrence")).toHaveText("No next occurrence");
  await row.getByRole("button", { name: "Resume: Monthly bank statements" }).click();
  await expect(row.getByTestId("next-occurrence")).toHaveText(/^Next: /);

  const templateRes = await request.post("/api/v1/portals", { headers, data: { name: `Onboarding ${tag}`, isTemplate: true } });
  expect(templateRes.status(), await templateRes.text()).toBe(201);
  const template = (await templateRes.json()) as { id: string };
  await page.goto(`/org/${orgId}/vault/${template.id}/tasks`);
  await expect(page.getByRole("heading", { name: "Request list" })).toBeVisible();
  for (const [type, name] of [
    ["Question?", "What is your company number?"],
    ["File Request", "Upload your photo ID"],
  ] as const) {
    await page.getByTestId("add-template-request").click();
    await dialog.getByLabel("Type").selectOption(type);
    await dialog.getByLabel("Title").fill(name);
    await dialog.getByLabel("Days after the portal is created").check();
    await dialog.getByRole("button", { name: "Add", exact: true }).click();
    await expect(page.getByTestId("template-request-row").filter({ hasText: name })).toBeVisible();
  }
  await look(page, "template-request-list");

  const portalRes = await request.post("/api/v1/portals", { headers, data: { name: `From template ${tag}`, templateId: template.id } });
  expect(portalRes.status(), await portalRes.text()).toBe(201);
  const portal = (await portalRes.json()) as { id: string };
  const tasks = (await (await request.get(`/api/v1/portals/${portal.id}/tasks`, { headers })).json()) as Array<{
    title: string;
    action_type: string;
    due_date: string | null;
  }>;
  expect(tasks.map((t) => [t.title, t.action_type]).sort()).toEqual([
    ["Upload your photo ID", "File Request"],
    ["What is your company number?", "Question?"],
  ]);
  expect(tasks.every((t) => t.due_date !== null)).toBe(true);
});
