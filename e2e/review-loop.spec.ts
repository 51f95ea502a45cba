import { randomUUID } from "node:crypto";
import { expect, test, type Page } from "@playwright/test";
import { query } from "./db";
import { check, CLIENT, FIRM, LAPTOP, mailTo, PHONE, seededPortal, signedIn, toast } from "./loop-support";
import { gotoStreamed } from "./support";

// The daily loop between a firm and its client, in Chromium against the production build: the
// firm (a laptop) asks for a file, the client (a phone) hears about it by email with a link straight
// to it, sends a file over two visits, the firm sends the request back with a reason, the client is
// emailed the reason and sends again, the firm accepts; a question answered is confirmed on the
// card; a signed document's task page shows the signature. The seeded Northwind Advisors portal
// (scripts/seed-guest.ts) is used with tasks of this spec's own, removed afterwards.

const run = randomUUID().slice(0, 8);
const TITLE = `Bank statement for March ${run}`;
const QUESTION = `Which bank is the statement from? ${run}`;
const SIGN = `Sign the engagement letter again ${run}`;

let orgId = "";
let portalId = "";

test.describe.configure({ mode: "serial" });

test.beforeAll(async () => {
  ({ orgId, portalId } = await seededPortal());
});

test.afterAll(async () => {
  // The seeded portal is shared with other specs: this spec's tasks leave it.
  await query(
    `UPDATE "FileEntry" SET "deletedAt" = now() WHERE "portalId" = $1 AND ("name" LIKE $2 OR "taskId" IN (SELECT "id" FROM "Task" WHERE "title" LIKE $2))`,
    [portalId, `%${run}%`],
  );
  await query(`UPDATE "Task" SET "deletedAt" = now() WHERE "portalId" = $1 AND "title" LIKE $2`, [portalId, `%${run}`]);
});

async function taskId(title: string): Promise<string> {
  const [task] = await query<{ id: string }>(`SELECT "id" FROM "Task" WHERE "title" = $1 AND "deletedAt" IS NULL`, [title]);
  return task!.id;
}

const completions = async (id: string) =>
  (await query<{ n: number }>(`SELECT count(*)::int AS n FROM "Event" WHERE "type" = 'task.completed' AND "data"->>'task_id' = $1`, [id]))[0]!.n;

async function uploadTo(page: Page, scope: ReturnType<Page["getByTestId"]>, name: string) {
  await scope.locator('input[type="file"]').setInputFiles({ name, mimeType: "application/pdf", buffer: Buffer.from(`%PDF-1.4 ${name}`) });
}

test("a request reaches the client by email; two uploads; sent back with a reason; sent again; accepted", async ({ browser }) => {
  const tasksPath = `/org/${orgId}/vault/${portalId}/tasks`;
  const firm = await signedIn(browser, FIRM, LAPTOP, tasksPath);
  await gotoStreamed(firm, tasksPath);
  await firm.getByTestId("new-task").click();
  const dialog = firm.getByRole("dialog", { name: "New task" });
  await dialog.getByLabel("Type").selectOption("File Request");
  await dialog.getByLabel("Title").fill(TITLE);
  await dialog.getByLabel(/^Due date/).fill("2031-04-15T12:00");
  await dialog.getByLabel("Casey Client (client@demo.test)").check();
  await dialog.getByRole("button", { name: "Create task" }).click();
  await expect(toast(firm, `Task "${TITLE}" created`)).toBeVisible();
  const id = await taskId(TITLE);

  // The client's email: branded, the due date, the link straight to the request.
  const created = await mailTo(CLIENT, "task-created", TITLE);
  expect(created.subject).toBe(`New request from Northwind Advisors: ${TITLE}`);
  expect(created.text).toContain("Due 15 Apr 2031");
  expect(created.html).toContain("data-brand=");
  const link = created.text.match(/https?:\/\/\S+#task-[0-9a-f-]{36}/)![0];
  expect(link).toContain(`/org/${orgId}/client/${portalId}#task-${id}`);

  // First visit, on the phone: the link opens the portal at the request; one file.
  const client = await signedIn(browser, CLIENT, PHONE, new URL(link).pathname);
  await client.goto(new URL(link).pathname + new URL(link).hash);
  const card = client.locator(`#task-${id}`);
  await expect(card).toContainText(TITLE);
  await check(client, "client-request", PHONE);
  await uploadTo(client, card, "march-page-1.pdf");
  await expect(toast(client, "File sent")).toBeVisible({ timeout: 20_000 });
  const done = client.getByTestId("guest-done-task").filter({ hasText: TITLE });
  await expect(done.getByTestId("done-state")).toContainText("Northwind Advisors will look at it");
  await check(client, "client-sent", PHONE);
  expect(await completions(id)).toBe(1);

  // Second visit: the second page added to the request already sent; no second completion.
  await client.reload();
  await done.getByText("Add more files to this request").click();
  await uploadTo(client, done, "march-page-2.pdf");
  await expect(toast(client, "File sent")).toBeVisible({ timeout: 20_000 });
  await expect(done).toContainText("march-page-2.pdf");
  expect(await completions(id)).toBe(1);
  expect(await query(`SELECT "name" FROM "FileEntry" WHERE "taskId" = $1 AND "status" = 'registered' ORDER BY "name"`, [id])).toEqual([
    { name: "march-page-1.pdf" },
    { name: "march-page-2.pdf" },
  ]);

  // The firm's task list says it waits for review; the task page shows both files.
  await gotoStreamed(firm, tasksPath);
  const row = firm.getByTestId("task-row").filter({ hasText: TITLE });
  await expect(row).toContainText("To review");
  await check(firm, "firm-task-list", LAPTOP);
  // The firm sends the request back with a reason.
  await firm.goto(`${tasksPath}/${id}`);
  await expect(firm.getByTestId("task-files")).toContainText("march-page-1.pdf");
  await expect(firm.getByTestId("task-files")).toContainText("march-page-2.pdf");
  await expect(firm.getByTestId("complete-task")).toHaveCount(0);
  await check(firm, "firm-review", LAPTOP);
  await firm.getByTestId("return-task").click();
  const back = firm.getByRole("dialog", { name: "Send back to the client" });
  await back.getByLabel("What is missing or wrong").fill("Page 3 is missing: please send the whole statement.");
  await check(firm, "firm-send-back-dialog", LAPTOP);
  await back.getByRole("button", { name: "Send back" }).click();
  await expect(toast(firm, "Sent back: the request is open again. The client was emailed your reason.")).toBeVisible();
  await expect(firm.getByTestId("task-review")).toContainText("waiting for the client");
  await check(firm, "firm-sent-back", LAPTOP);
  expect((await query<{ status: string }>(`SELECT "status" FROM "Task" WHERE "id" = $1`, [id]))[0]!.status).toBe("Open");
  expect(
    await query(`SELECT "action" FROM "AuditLog" WHERE "targetId" = $1 AND "action" IN ('task.reopened', 'task.returned') ORDER BY "action"`, [id]),
  ).toEqual([{ action: "task.reopened" }, { action: "task.returned" }]);

  // The client is emailed the reason, sees it on the request, and sends again.
  const returned = await mailTo(CLIENT, "task-returned", "Page 3 is missing");
  expect(returned.subject).toBe(`Northwind Advisors sent back: ${TITLE}`);
  await client.goto(new URL(returned.text.match(/https?:\/\/\S+#task-[0-9a-f-]{36}/)![0]).pathname);
  const reopened = client.locator(`#task-${id}`);
  await expect(reopened.getByTestId("returned-note")).toContainText("Page 3 is missing");
  await check(client, "client-sent-back", PHONE);
  await uploadTo(client, reopened, "march-full.pdf");
  await expect(toast(client, "File sent")).toBeVisible({ timeout: 20_000 });
  await expect(client.getByTestId("guest-done-task").filter({ hasText: TITLE })).toBeVisible();
  expect(await completions(id)).toBe(2);

  // The firm accepts.
  await firm.reload();
  await firm.getByTestId("accept-task").click();
  await expect(toast(firm, "Accepted.")).toBeVisible();
  await expect(firm.getByTestId("task-review")).toContainText("Accepted");
  await gotoStreamed(firm, tasksPath);
  await expect(row).toContainText("Accepted");
  await client.reload();
  await expect(client.getByTestId("guest-done-task").filter({ hasText: TITLE }).getByTestId("done-state")).toHaveText(
    "Accepted by Northwind Advisors. Nothing more to do.",
  );
  await check(client, "client-accepted", PHONE);

  // Files nobody asked for have their own place.
  await client.getByText("Send other files to Northwind Advisors").click();
  await uploadTo(client, client.getByTestId("send-files"), `notes-${run}.pdf`);
  await expect(toast(client, "File sent")).toBeVisible({ timeout: 20_000 });
  await expect(client.getByTestId("guest-file").filter({ hasText: `notes-${run}.pdf` })).toBeVisible();
  await check(client, "client-send-files", PHONE);
  await firm.context().close();
  await client.context().close();
});

test("an answered question is confirmed on the client's page, with what happens next", async ({ browser }) => {
  const [client0] = await query<{ id: string }>(`SELECT "id" FROM "User" WHERE "email" = $1`, [CLIENT]);
  const id = randomUUID();
  await query(
    `INSERT INTO "Task" ("id", "orgId", "portalId", "title", "actionType", "status", "createdAt", "updatedAt") VALUES ($1, $2, $3, $4, 'Question', 'Open', now(), now())`,
    [id, orgId, portalId, QUESTION],
  );
  await query(`INSERT INTO "TaskAssignee" ("id", "taskId", "userId", "type", "email") VALUES ($1, $2, $3, 'guest', $4)`, [
    randomUUID(),
    id,
    client0!.id,
    CLIENT,
  ]);
  const path = `/org/${orgId}/client/${portalId}`;
  const client = await signedIn(browser, CLIENT, PHONE, path);
  await client.goto(`${path}#task-${id}`);
  const card = client.locator(`#task-${id}`);
  await card.getByLabel("Your answer").fill("Northwind Bank, the joint account.");
  await card.getByRole("button", { name: "Send answer" }).click();
  await expect(toast(client, "Answer sent")).toContainText("Northwind Advisors will look at it");
  await expect(client.getByTestId("guest-done-task").filter({ hasText: QUESTION }).getByTestId("done-state")).toContainText("Sent.");
  await check(client, "client-answered", PHONE);
  await client.context().close();
});

test("a Sign Document: no Complete before the signature; after it, the firm sees signer, time, IP, the signed copy and its certificate", async ({
  browser,
}) => {
  const [letter] = await query<{ id: string }>(`SELECT "id" FROM "FileEntry" WHERE "portalId" = $1 AND "name" = 'Engagement letter.pdf'`, [portalId]);
  const [client0] = await query<{ id: string }>(`SELECT "id" FROM "User" WHERE "email" = $1`, [CLIENT]);
  const fileId = letter!.id;
  const id = randomUUID();
  await query(
    `INSERT INTO "Task" ("id", "orgId", "portalId", "title", "actionType", "status", "documentFileId", "signaturePlacement", "createdAt", "updatedAt")
     VALUES ($1, $2, $3, $4, 'SignDocument', 'Open', $5, '{"signaturePage": true}', now(), now())`,
    [id, orgId, portalId, SIGN, fileId],
  );
  await query(`INSERT INTO "TaskAssignee" ("id", "taskId", "userId", "type", "email") VALUES ($1, $2, $3, 'guest', $4)`, [
    randomUUID(),
    id,
    client0!.id,
    CLIENT,
  ]);

  const taskPath = `/org/${orgId}/vault/${portalId}/tasks/${id}`;
  const firm = await signedIn(browser, FIRM, LAPTOP, taskPath);
  await firm.goto(taskPath);
  await expect(firm.getByRole("heading", { name: SIGN })).toBeVisible();
  await expect(firm.getByTestId("complete-task")).toHaveCount(0);
  await expect(firm.getByText("This task completes when the client signs the document")).toBeVisible();

  const signPath = `/org/${orgId}/client/${portalId}/sign/${id}`;
  const client = await signedIn(browser, CLIENT, PHONE, signPath);
  await client.goto(signPath);
  await client.getByLabel("Your full name").fill("Casey Client");
  await client.getByLabel("I agree to sign electronically").check();
  await client.getByRole("button", { name: "Sign the document" }).click();
  await expect(client.getByText("Signed. Thank you!").or(client.getByText("This document is signed"))).toBeVisible({ timeout: 30_000 });

  await firm.reload();
  const record = firm.getByTestId("signature-record");
  await expect(record).toContainText("Casey Client");
  await expect(record).toContainText(CLIENT);
  await expect(record).toContainText(/IP address\s*\S+/);
  await expect(firm.getByRole("link", { name: "Engagement letter (signed).pdf", exact: true })).toBeVisible();
  await expect(firm.getByRole("link", { name: "Engagement letter.pdf", exact: true })).toBeVisible();
  const certificate = firm.getByTestId("certificate-link");
  await expect(certificate).toHaveText(/Certificate of signing \(page \d+ of the signed copy\)/);
  expect(await certificate.getAttribute("href")).toMatch(/\/download\?inline=1#page=\d+$/);
  await expect(firm.getByTestId("complete-task")).toHaveCount(0);
  await expect(firm.getByTestId("reopen-task")).toHaveCount(0);
  await check(firm, "firm-signed", LAPTOP);
  await check(firm, "firm-signed", PHONE);
  // The certificate link answers with the signed PDF.
  const pdf = await firm.request.get(new URL((await certificate.getAttribute("href"))!.split("#")[0]!, firm.url()).toString());
  expect(pdf.ok()).toBe(true);
  expect((await pdf.body()).subarray(0, 5).toString()).toBe("%PDF-");
  await firm.context().close();
  await client.context().close();
});

test("My notifications offers the 'Requests for you' and 'Messages' choices, on a phone and a laptop", async ({ browser }) => {
  const client = await signedIn(browser, CLIENT, PHONE, "/account/notifications");
  await client.goto("/account/notifications");
  await expect(client.getByText("Requests for you")).toBeVisible();
  await expect(client.getByText("Several uploads, requests or messages within a minute come as one email.")).toBeVisible();
  await expect(client.getByTestId("notify-messages")).toContainText("Messages");
  await check(client, "notifications", PHONE);
  await check(client, "notifications", LAPTOP);
  await client.context().close();
});
