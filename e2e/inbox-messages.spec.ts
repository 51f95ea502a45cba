import { randomUUID } from "node:crypto";
import { expect, test, type Page } from "@playwright/test";
import { query } from "./db";
import { check as checkAt, CLIENT, FIRM, LAPTOP, mailTo, PHONE, PORTAL, seededPortal, signedIn, toast } from "./loop-support";
import { gotoStreamed, saveScreenshot } from "./support";

// The firm's inbox and a portal's messages, in Chromium against the production build: the client
// (a phone) writes with an attachment, the firm (a laptop) sees it in the inbox with the unread
// count, opens it (the count goes down), answers with an attachment; the client is emailed, sees
// the answer marked new, and the marker goes once read. The client's uploads and answers are in
// the inbox too. The seeded Northwind Advisors portal (scripts/seed-guest.ts) is used.

const run = randomUUID().slice(0, 8);
const QUESTION_TEXT = `Can you confirm the trust's name? ${run}`;
const REPLY_TEXT = `Received, thank you. The draft is attached. ${run}`;
const QUESTION_TASK = `Which accounts are joint? ${run}`;

let orgId = "";
let portalId = "";

test.describe.configure({ mode: "serial" });

test.beforeAll(async () => {
  ({ orgId, portalId } = await seededPortal());
});

test.afterAll(async () => {
  // The seeded portal is shared with other specs: this spec's files and tasks leave it.
  await query(`UPDATE "FileEntry" SET "deletedAt" = now() WHERE "portalId" = $1 AND "name" LIKE $2`, [portalId, `%${run}%`]);
  await query(`UPDATE "Task" SET "deletedAt" = now() WHERE "portalId" = $1 AND "title" LIKE $2`, [portalId, `%${run}`]);
});

/** A page checked at the size (screenshot, fits the screen, axe clean), under this spec's prefix. */
const check = (page: Page, name: string, size: { width: number; height: number }) => checkAt(page, name, size, "inbox");

/** The header's inbox link and the unread count it shows (0 when it says just "Inbox"). */
async function headerCount(page: Page): Promise<number> {
  const link = page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: /^Inbox/ });
  const text = (await link.textContent()) ?? "";
  return Number(/\((\d+)\)/.exec(text)?.[1] ?? 0);
}

/** The room between what "Mine only" shows (its box and words) and what "Unread only" shows, on one line. */
async function filterGap(page: Page): Promise<number> {
  return page.evaluate(() => {
    const shown = (name: string) => {
      const range = document.createRange();
      range.selectNodeContents(document.querySelector(`input[name="${name}"]`)!.closest("label")!);
      return range.getBoundingClientRect();
    };
    const [mine, unread] = [shown("mine"), shown("unread")];
    return Math.abs(mine.top - unread.top) > 4 ? Infinity : unread.left - mine.right;
  });
}

async function attach(page: Page, name: string) {
  const composer = page.getByTestId("message-composer");
  await composer.getByRole("button", { name: "Attach files" }).click();
  await composer.locator('input[type="file"]').setInputFiles({ name, mimeType: "application/pdf", buffer: Buffer.from(`%PDF-1.4 ${name}`) });
  await expect(composer.getByTestId("attachment").filter({ hasText: name })).toBeVisible({ timeout: 20_000 });
}

test("a client's message with an attachment reaches the firm's inbox; the firm answers; the client reads it", async ({ browser }) => {
  const clientPath = `/org/${orgId}/client/${portalId}`;
  const client = await signedIn(browser, CLIENT, PHONE, clientPath);
  await gotoStreamed(client, `${clientPath}#messages`);
  await expect(client.getByRole("heading", { name: /Messages with Northwind Advisors/ })).toBeVisible();
  await client.getByLabel("Your message").fill(QUESTION_TEXT);
  await attach(client, `trust-deed-${run}.pdf`);
  await check(client, "client-composing", PHONE);
  await client.getByRole("button", { name: "Send message" }).click();
  await expect(toast(client, "Message sent")).toBeVisible();
  const mine = client.getByTestId("message").filter({ hasText: QUESTION_TEXT });
  await expect(mine).toContainText(`trust-deed-${run}.pdf`);
  await expect(client.getByLabel("Your message")).toHaveValue("");

  // The firm's inbox: the message, new, counted in the header.
  const inboxPath = `/org/${orgId}/inbox`;
  const firm = await signedIn(browser, FIRM, LAPTOP, inboxPath);
  await gotoStreamed(firm, inboxPath);
  const before = await headerCount(firm);
  expect(before).toBeGreaterThan(0);
  await expect(firm.getByTestId("inbox-unread")).toContainText(`${before} new`);
  const item = firm.getByTestId("inbox-item").filter({ hasText: QUESTION_TEXT });
  await expect(item).toHaveAttribute("data-unread", "true");
  await expect(item).toHaveAttribute("data-kind", "message");
  await expect(item).toContainText(PORTAL);
  // The upload attached to the message is not a second line.
  await expect(firm.getByTestId("inbox-item").filter({ hasText: `trust-deed-${run}.pdf` })).toHaveCount(0);
  await check(firm, "inbox", LAPTOP);
  // The filters are one tight group: "Unread only" follows "Mine only" closely, in either scheme.
  for (const colorScheme of ["light", "dark"] as const) {
    await firm.emulateMedia({ colorScheme });
    expect(await filterGap(firm), `${colorScheme}: the gap between "Mine only" and "Unread only"`).toBeLessThan(32);
    await saveScreenshot(firm, `inbox-inbox-filters-1280x800-${colorScheme}`);
  }
  await firm.emulateMedia({ colorScheme: "light" });
  await check(firm, "inbox", PHONE);
  await firm.setViewportSize(LAPTOP);

  // Keyboard: ↓ and ↑ move between the items' open buttons.
  const opens = firm.getByTestId("inbox-list").locator("[data-inbox-open]");
  if ((await opens.count()) > 1) {
    await opens.first().focus();
    await firm.keyboard.press("ArrowDown");
    await expect(opens.nth(1)).toBeFocused();
    await firm.keyboard.press("k");
    await expect(opens.first()).toBeFocused();
  }

  // Opening it: the portal's Messages tab at the message; the count goes down by one.
  await item.getByRole("button").click();
  await firm.waitForURL(new RegExp(`/org/${orgId}/vault/${portalId}/messages`));
  await expect.poll(() => headerCount(firm)).toBe(before - 1);
  const received = firm.getByTestId("message").filter({ hasText: QUESTION_TEXT });
  await expect(received).toContainText("Casey Client");
  await expect(received.getByRole("link", { name: `trust-deed-${run}.pdf` })).toBeVisible();
  await check(firm, "portal-messages", LAPTOP);
  await check(firm, "portal-messages", PHONE);
  await firm.setViewportSize(LAPTOP);

  // The firm answers with an attachment.
  await firm.getByLabel("Your message").fill(REPLY_TEXT);
  await attach(firm, `draft-${run}.pdf`);
  await firm.getByRole("button", { name: "Send message" }).click();
  await expect(toast(firm, "Message sent")).toBeVisible();
  await expect(firm.getByTestId("message").filter({ hasText: REPLY_TEXT })).toContainText(`draft-${run}.pdf`);
  expect(
    await query(`SELECT "action" FROM "AuditLog" WHERE "portalId" = $1 AND "action" = 'message.posted' AND "createdAt" > now() - interval '5 minutes'`, [
      portalId,
    ]),
  ).toHaveLength(2);

  // The client's email, with the link to the portal's messages.
  const mail = await mailTo(CLIENT, "message-posted", REPLY_TEXT);
  expect(mail.subject).toBe(`New message from Nora North (Northwind Advisors) in ${PORTAL}`);
  expect(mail.text).toContain(`draft-${run}.pdf`);
  const link = mail.text.match(/https?:\/\/\S+#messages/)![0];
  expect(link).toContain(`/org/${orgId}/client/${portalId}#messages`);

  // The client reads it: marked new, then the marker goes.
  // The client's page is still open at the thread: the email's link (the same address) loads it anew.
  await gotoStreamed(client, new URL(link).pathname + new URL(link).hash);
  await client.reload();
  const reply = client.getByTestId("message").filter({ hasText: REPLY_TEXT });
  await expect(reply).toHaveAttribute("data-unread", "true");
  await expect(reply.getByText("New", { exact: true })).toBeVisible();
  await expect(reply.getByRole("link", { name: `draft-${run}.pdf` })).toBeVisible();
  await expect(reply).not.toHaveAttribute("data-unread", "true", { timeout: 15_000 });
  await expect(client.locator('[data-testid="message"][data-unread]')).toHaveCount(0);
  await check(client, "client-read", PHONE);
  await check(client, "client-read", LAPTOP);

  await firm.context().close();
  await client.context().close();
});

test("the client's uploads and answers are in the firm's inbox, filterable by kind and portal", async ({ browser }) => {
  const [task] = await query<{ id: string }>(
    `INSERT INTO "Task" ("id", "orgId", "portalId", "title", "actionType", "status", "createdAt", "updatedAt")
     VALUES (gen_random_uuid(), $1, $2, $3, 'Question', 'Open', now(), now()) RETURNING "id"`,
    [orgId, portalId, QUESTION_TASK],
  );
  const clientPath = `/org/${orgId}/client/${portalId}`;
  const client = await signedIn(browser, CLIENT, PHONE, clientPath);
  await gotoStreamed(client, clientPath);
  const card = client.locator(`#task-${task!.id}`);
  // The client's open tasks are a compact list, one open at a time (it may be the open one
  // already; a click before the page is hydrated does nothing, so it is tried until it holds).
  const opener = card.getByRole("heading").getByRole("button");
  await expect(async () => {
    if ((await opener.getAttribute("aria-expanded")) !== "true") await opener.click();
    await expect(opener).toHaveAttribute("aria-expanded", "true", { timeout: 1_000 });
  }).toPass();
  await card.getByLabel("Your answer").fill("The savings account only.");
  await card.getByRole("button", { name: "Send answer" }).click();
  await expect(toast(client, "Answer sent")).toBeVisible();
  await client.getByText("Send other files to Northwind Advisors").click();
  await client
    .getByTestId("send-files")
    .locator('input[type="file"]')
    .setInputFiles({ name: `statement-${run}.pdf`, mimeType: "application/pdf", buffer: Buffer.from("%PDF-1.4 statement") });
  await expect(toast(client, "File sent")).toBeVisible({ timeout: 20_000 });

  const inboxPath = `/org/${orgId}/inbox`;
  const firm = await signedIn(browser, FIRM, LAPTOP, inboxPath);
  await gotoStreamed(firm, inboxPath);
  const items = firm.getByTestId("inbox-item");
  await expect(items.first()).toContainText(`statement-${run}.pdf`);
  await expect(items.filter({ hasText: QUESTION_TASK })).toHaveAttribute("data-kind", "answer");

  await firm.getByLabel("Kind").selectOption("upload");
  await firm.getByRole("button", { name: "Apply filters" }).click();
  await firm.waitForURL(/kind=upload/);
  await expect(items.filter({ hasText: QUESTION_TASK })).toHaveCount(0);
  await expect(items.filter({ hasText: `statement-${run}.pdf` })).toHaveCount(1);

  // The portal filter, from an item's portal link; then "mark all seen" empties the count.
  await gotoStreamed(firm, inboxPath);
  await items
    .first()
    .getByRole("link", { name: `Only ${PORTAL}` })
    .click();
  await firm.waitForURL(new RegExp(`portal=${portalId}`));
  await expect(firm.getByText(`Only ${PORTAL}`, { exact: false }).first()).toBeVisible();
  await check(firm, "inbox-filtered", LAPTOP);
  await firm.getByRole("button", { name: "Mark all seen" }).click();
  await expect(toast(firm, "All seen")).toBeVisible();
  await expect.poll(() => headerCount(firm)).toBe(0);
  await expect(firm.locator('[data-testid="inbox-item"][data-unread]')).toHaveCount(0);

  await firm.context().close();
  await client.context().close();
});
