import { randomUUID } from "node:crypto";
import { expect, test, type Page } from "@playwright/test";
import { query } from "./db";
import { checkScreen, gotoStreamed, signedInAt } from "./support";

// Several signers on one document, in Chromium against the production build: the firm (a laptop)
// creates a Sign Document naming a client, itself and a second client in that order; the second
// client (a phone) is told it is not their turn; each signs in turn on the signing page; the
// firm's task page shows each signer's state and, after the last, the signature record. The
// seeded Northwind Advisors portal (scripts/seed-guest.ts) with this spec's own task.

const PORTAL = "Rivera Family — estate planning";
const FIRM = { email: "nora@northwind.test", name: "Nora North" };
const CLIENT = { email: "client@demo.test", name: "Casey Client" };
const VIEWER = { email: "viewer@demo.test", name: "Val Viewer" };
const LAPTOP = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };
const run = randomUUID().slice(0, 8);
const TITLE = `Sign the trust deed ${run}`;

let orgId = "";
let portalId = "";

test.describe.configure({ mode: "serial" });

test.beforeAll(async () => {
  const [portal] = await query<{ id: string; orgId: string }>(`SELECT "id", "orgId" FROM "Portal" WHERE "name" = $1`, [PORTAL]);
  orgId = portal!.orgId;
  portalId = portal!.id;
});

test.afterAll(async () => {
  await query(`UPDATE "FileEntry" SET "deletedAt" = now() WHERE "portalId" = $1 AND "taskId" IN (SELECT "id" FROM "Task" WHERE "title" = $2)`, [
    portalId,
    TITLE,
  ]);
  await query(`UPDATE "Task" SET "deletedAt" = now() WHERE "portalId" = $1 AND "title" = $2`, [portalId, TITLE]);
});

const check = (page: Page, name: string, size: { width: number; height: number }) => checkScreen(page, `signers-${name}`, size);
const signedIn = signedInAt;

async function signAs(page: Page, path: string, name: string) {
  await page.goto(path);
  await page.getByLabel("Your full name").fill(name);
  await page.getByLabel("I agree to sign electronically").check();
  await page.getByRole("button", { name: "Sign the document" }).click();
  await expect(page.getByText("Signed. Thank you!").or(page.getByText("You have signed")).or(page.getByText("This document is signed")).first()).toBeVisible({
    timeout: 30_000,
  });
}

test("a client, the firm and a second client sign in order; out of turn is refused; the task page shows each signer", async ({ browser }) => {
  test.setTimeout(300_000);
  const tasksPath = `/org/${orgId}/vault/${portalId}/tasks`;
  const firm = await signedIn(browser, FIRM.email, LAPTOP, tasksPath);
  await gotoStreamed(firm, tasksPath);
  await firm.getByTestId("new-task").click();
  const dialog = firm.getByRole("dialog", { name: "New task" });
  await dialog.getByLabel("Type").selectOption("Sign Document");
  await dialog.getByLabel("Title").fill(TITLE);
  await dialog.getByLabel("PDF of this portal").selectOption({ label: "Engagement letter.pdf" });
  const add = dialog.getByLabel("Add a signer");
  await add.selectOption({ label: `${CLIENT.name} (${CLIENT.email}) · guest` });
  await add.selectOption({ label: `${VIEWER.name} (${VIEWER.email}) · guest` });
  await add.selectOption({ label: `${FIRM.name} (${FIRM.email}) · member` });
  // Val moves to the end: Casey, Nora, Val.
  await dialog.getByRole("button", { name: `Move ${VIEWER.name} (${VIEWER.email}) · guest down` }).click();
  await expect(dialog.getByTestId("signer-row")).toHaveText([/Casey Client/, /Nora North/, /Val Viewer/]);
  await expect(dialog.getByLabel("One after another, in this order", { exact: false })).toBeChecked();
  await check(firm, "dialog", LAPTOP);
  await check(firm, "dialog", PHONE);
  await firm.setViewportSize(LAPTOP);
  await dialog.getByRole("button", { name: "Create task" }).click();
  await expect(firm.getByTestId("toast").filter({ hasText: `Task "${TITLE}" created` })).toBeVisible();
  const [task] = await query<{ id: string }>(`SELECT "id" FROM "Task" WHERE "title" = $1 AND "deletedAt" IS NULL`, [TITLE]);
  const id = task!.id;
  const signPath = `/org/${orgId}/client/${portalId}/sign/${id}`;
  const taskPath = `/org/${orgId}/vault/${portalId}/tasks/${id}`;

  // Val comes too early.
  const val = await signedIn(browser, VIEWER.email, PHONE, signPath);
  await val.goto(signPath);
  await expect(val.getByTestId("signing-refusal")).toHaveText(
    "It is not your turn to sign yet: Casey Client signs first. You get an email when it is your turn.",
  );
  await check(val, "not-your-turn", PHONE);

  const casey = await signedIn(browser, CLIENT.email, PHONE, signPath);
  await signAs(casey, signPath, CLIENT.name);
  await firm.goto(taskPath);
  await expect(firm.getByTestId("task-signers").getByRole("listitem")).toHaveText([/Casey Client.*Signed/, /Nora North.*To sign now/, /Val Viewer.*Waiting/]);
  await expect(firm.getByText("This task completes when the last of its 3 signers signs.")).toBeVisible();
  await check(firm, "task-in-progress", LAPTOP);
  await check(firm, "task-in-progress", PHONE);
  await firm.setViewportSize(LAPTOP);

  await signAs(firm, signPath, FIRM.name);
  const turn = await query<{ to: string }>(`SELECT "to" FROM "OutboundEmail" WHERE "template" = 'turn-to-sign' AND "subject" LIKE $1 ORDER BY "createdAt"`, [
    `%${TITLE}`,
  ]);
  expect(turn.map((e) => e.to)).toEqual([FIRM.email, VIEWER.email]);
  await val.goto(signPath);
  await expect(val.getByText("2 of 3 signers have signed", { exact: false })).toBeVisible();
  await signAs(val, signPath, VIEWER.name);

  await firm.goto(taskPath);
  await expect(firm.getByTestId("task-signers").getByRole("listitem")).toHaveText([/Signed/, /Signed/, /Signed/]);
  await expect(firm.getByTestId("signature-record")).toContainText(VIEWER.name);
  const events = await query<{ n: number }>(`SELECT count(*)::int AS n FROM "Event" WHERE "type" = 'file.signed' AND "data"->>'task_id' = $1`, [id]);
  expect(events[0]!.n).toBe(1);
  await check(firm, "task-signed", LAPTOP);
  await check(firm, "task-signed", PHONE);
  for (const page of [firm, val, casey]) await page.context().close();
});
