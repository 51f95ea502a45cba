import { randomUUID } from "node:crypto";
import AxeBuilder from "@axe-core/playwright";
import { expect, test, type Locator, type Page } from "@playwright/test";
import { withDb } from "./files-support";
import { DEMO_PASSWORD, gotoStreamed, signIn } from "./support";

// Every page and dialog, as each role sees it, on a laptop, a desktop and a phone. Each check names
// the page and the size it failed at:
// - nothing wider than the screen (no sideways page scroll);
// - every button and link can be reached: in the window, or scrolled to (a dialog's own actions
//   are in the window without scrolling: its footer sticks);
// - no element wider than its box: a table fits its card (the files table with a linked task, a
//   partner status and a 75-character name included), no text drawn past its cell, and text cut
//   short with an ellipsis shows its full value on hover (title) and in its accessible name;
// - on a phone, tabs that do not fit say that more exist;
// - no Content-Security-Policy violation (the browser's `securitypolicyviolation` events and its
//   console messages);
// - no serious or critical accessibility violation (axe-core), the API reference included.
// A screenshot of each page and dialog at each size is in test-results/screenshots/.

const SIZES = [
  { label: "laptop", width: 1280, height: 800 },
  { label: "desktop", width: 1440, height: 900 },
  { label: "phone", width: 390, height: 844 },
] as const;
type Size = (typeof SIZES)[number];

/** 75 characters, with no space to break at, as file names from scanners are. */
const LONG_FILE_NAME = "2026-11-27_Scan_Quarterly-VAT-return_Zephyr-Holdings-International_signed.pdf";
const LONG_PORTAL_NAME = "Zephyr Holdings International Limited — 2026 year end consolidated accounts";

/** CSP violations the browser reported in this page, from the listeners installed by `watchCsp`. */
const cspViolations = new WeakMap<Page, string[]>();

/** Records every CSP violation: the DOM event (with the blocked source and where) and console messages. */
async function watchCsp(page: Page): Promise<void> {
  const seen: string[] = [];
  cspViolations.set(page, seen);
  await page.addInitScript(() => {
    document.addEventListener("securitypolicyviolation", (e) => {
      console.error(`securitypolicyviolation: ${e.violatedDirective} blocked ${e.blockedURI || "inline"} at ${e.sourceFile}:${e.lineNumber}:${e.columnNumber}`);
    });
  });
  page.on("console", (message) => {
    const text = message.text();
    if (text.includes("Content Security Policy") || text.startsWith("securitypolicyviolation")) seen.push(`${page.url()}: ${text}`);
  });
}

function expectNoCspViolation(page: Page, name: string): void {
  const seen = cspViolations.get(page) ?? [];
  expect.soft(seen, `CSP violations on ${name}`).toEqual([]);
  // Each page's violations are reported once.
  seen.length = 0;
}

/** Layout problems on the page as it is, each named with the element (see the file's comment). */
async function layoutProblems(page: Page, scope: string | null): Promise<string[]> {
  return page.evaluate((scopeSelector) => {
    const problems: string[] = [];
    const root: Element = (scopeSelector ? document.querySelector(scopeSelector) : document.body) ?? document.body;
    const describe = (el: Element) => {
      const id = el.getAttribute("data-testid") ?? el.getAttribute("aria-label") ?? "";
      const text = (el.textContent ?? "").trim().replace(/\s+/g, " ").slice(0, 40);
      return `<${el.tagName.toLowerCase()}${id ? ` ${id}` : ""}> "${text}"`;
    };
    // Rendered and not hidden (checkVisibility: also not inside a closed <details>).
    const visible = (el: Element) => {
      const r = el.getBoundingClientRect();
      return r.width > 1 && r.height > 1 && el.checkVisibility({ visibilityProperty: true, contentVisibilityAuto: true });
    };
    const clips = (el: Element) => getComputedStyle(el).overflowX !== "visible";

    // No sideways scrolling inside the page: tables fit their cards. The tab row alone may scroll
    // (it says so, checked below).
    for (const el of root.querySelectorAll("*")) {
      if (!visible(el) || el.closest("[data-testid='nav-tabs']")) continue;
      const style = getComputedStyle(el);
      // Code samples scroll sideways, as code does.
      const code = el.matches("pre, code") || el.querySelector(":scope > pre, :scope > code, :scope > div > pre");
      if ((style.overflowX === "auto" || style.overflowX === "scroll") && el.scrollWidth > el.clientWidth + 1 && !code) {
        problems.push(`${describe(el)} scrolls sideways: ${el.scrollWidth}px of content in ${el.clientWidth}px`);
      }
    }
    // Nothing drawn past its table cell (what a clipping box inside the cell cuts off is not drawn).
    for (const cell of root.querySelectorAll("td, th")) {
      if (!visible(cell)) continue;
      const box = cell.getBoundingClientRect();
      for (const el of cell.querySelectorAll("*")) {
        if (!visible(el) || el.closest(".sr-only")) continue;
        let { left, right } = el.getBoundingClientRect();
        for (let a = el.parentElement; a && a !== cell; a = a.parentElement) {
          if (clips(a)) {
            const r = a.getBoundingClientRect();
            left = Math.max(left, r.left);
            right = Math.min(right, r.right);
          }
        }
        if (right > box.right + 1 || left < box.left - 1) {
          problems.push(
            `${describe(el)} is drawn past its cell (${Math.round(left)}–${Math.round(right)} in ${Math.round(box.left)}–${Math.round(box.right)})`,
          );
          break;
        }
      }
    }
    // Text cut short with an ellipsis: its full value on hover (a title) and for screen readers.
    for (const el of root.querySelectorAll("*")) {
      if (!visible(el) || getComputedStyle(el).textOverflow !== "ellipsis" || el.scrollWidth <= el.clientWidth + 1) continue;
      const text = (el.textContent ?? "").trim();
      const title = el.closest("[title]")?.getAttribute("title") ?? "";
      if (!title.includes(text.replace(/^Task: /, ""))) problems.push(`${describe(el)} is cut short without its full text as a title`);
    }
    const scrolled = [...root.querySelectorAll("*")]
      .map((el) => [el, el.scrollLeft, el.scrollTop] as const)
      .filter(([el]) => el.scrollHeight > el.clientHeight || el.scrollWidth > el.clientWidth);
    // Every visible button and link can be reached: scrolled into the window if needed.
    for (const el of root.querySelectorAll("button, a[href], input:not([type='hidden']), select, textarea")) {
      if (!visible(el) || el.closest(".sr-only") || el.closest("[aria-hidden='true']")) continue;
      el.scrollIntoView({ block: "nearest", inline: "nearest" });
      const r = el.getBoundingClientRect();
      if (r.right > window.innerWidth + 1 || r.left < -1 || r.bottom > window.innerHeight + 1 || r.top < -1) {
        problems.push(`${describe(el)} cannot be scrolled into the window (at ${Math.round(r.left)},${Math.round(r.top)})`);
      }
    }
    // Back to where everything was: the page and every box scrolled above.
    window.scrollTo(0, 0);
    for (const [el, left, top] of scrolled) {
      el.scrollLeft = left;
      el.scrollTop = top;
    }
    return problems;
  }, scope);
}

async function expectAxeClean(page: Page, name: string, include?: string): Promise<void> {
  let axe = new AxeBuilder({ page });
  if (include) axe = axe.include(include);
  const { violations } = await axe.analyze();
  const serious = violations.filter((v) => v.impact === "serious" || v.impact === "critical");
  expect
    .soft(
      serious.map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`),
      `axe on ${name}`,
    )
    .toEqual([]);
}

async function atSize(page: Page, size: Size): Promise<void> {
  await page.setViewportSize({ width: size.width, height: size.height });
  // Layout settles (resize observers, fonts) before measuring.
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
}

/** The page's own checks at one size; `name` names the screenshot and the failures. */
async function checkLayout(page: Page, name: string, size: Size): Promise<void> {
  const label = `${name} at ${size.width}x${size.height}`;
  const { scrollWidth, innerWidth } = await page.evaluate(() => ({ scrollWidth: document.documentElement.scrollWidth, innerWidth: window.innerWidth }));
  expect.soft(scrollWidth, `${label} is ${scrollWidth}px wide on a ${innerWidth}px screen`).toBeLessThanOrEqual(innerWidth);
  expect.soft(await layoutProblems(page, null), `layout of ${label}`).toEqual([]);
  const tabs = page.getByTestId("nav-tabs");
  if (await tabs.count()) {
    const overflows = await tabs.evaluate((nav) => nav.scrollWidth > nav.clientWidth + 1);
    if (overflows)
      await expect(page.getByTestId("tabs-more-after").or(page.getByTestId("tabs-more-before")).first(), `${label}: tabs that do not fit say so`).toBeVisible();
  }
  await page.screenshot({ path: `test-results/screenshots/${name}-${size.width}x${size.height}.png`, fullPage: true });
}

/** An open dialog at one size: its actions in the window without scrolling, nothing wider than it. */
async function checkDialog(page: Page, dialog: Locator, name: string, size: Size): Promise<void> {
  const label = `${name} at ${size.width}x${size.height}`;
  for (const button of await dialog.locator("button[type='submit'], [data-testid='dialog-footer'] button").all()) {
    if (!(await button.isVisible())) continue;
    await expect.soft(button, `${label}: ${(await button.textContent())?.trim()} is in the window`).toBeInViewport({ ratio: 1 });
  }
  const box = await dialog.boundingBox();
  expect.soft(box && box.y >= 0 && box.y + box.height <= size.height + 1, `${label}: the dialog fits the window (${JSON.stringify(box)})`).toBe(true);
  expect.soft(await layoutProblems(page, "[role='dialog'], [role='alertdialog']"), `layout of ${label}`).toEqual([]);
  // Nothing in the dialog hidden under its footer, when scrolled to (as focus scrolls it).
  const covered = await dialog.evaluate((root) => {
    const found: string[] = [];
    for (const el of root.querySelectorAll("input:not([type='hidden']), select, textarea, button, a[href]")) {
      const before = el.getBoundingClientRect();
      if (before.width <= 1 || before.height <= 1 || el.closest("[data-testid='dialog-footer']")) continue;
      el.scrollIntoView({ block: "nearest", inline: "nearest" });
      const r = el.getBoundingClientRect();
      for (const y of [r.top + 2, r.bottom - 2]) {
        const hit = document.elementFromPoint(r.left + r.width / 2, y);
        if (hit && hit !== el && !el.contains(hit) && !hit.contains(el))
          found.push(`<${el.tagName.toLowerCase()} ${el.id}> is under <${hit.tagName.toLowerCase()}> at y=${Math.round(y)}`);
      }
    }
    root.querySelector("[data-testid='dialog-body']")?.scrollTo(0, 0);
    return found;
  });
  expect.soft(covered, `${label}: fields hidden under the dialog's footer`).toEqual([]);
  await page.screenshot({ path: `test-results/screenshots/${name}-${size.width}x${size.height}.png` });
}

/** Every page check at every size, then axe and the CSP, at the laptop size. */
async function checkPage(page: Page, name: string): Promise<void> {
  await page.waitForLoadState("networkidle");
  for (const size of SIZES) {
    await atSize(page, size);
    await checkLayout(page, name, size);
  }
  await atSize(page, SIZES[0]);
  await expectAxeClean(page, name);
  expectNoCspViolation(page, name);
}

/**
 * Opens every dialog the page has a trigger for (Radix marks them aria-haspopup="dialog") at each
 * size, checks it, runs axe on it, and closes it; `extra` runs inside each open dialog (e.g. each
 * task type of New task).
 */
async function checkDialogs(page: Page, name: string, extra?: (dialog: Locator, size: Size, label: string) => Promise<void>): Promise<number> {
  const triggers = page.locator("main button[aria-haspopup='dialog']:visible:enabled");
  let count = 0;
  for (const size of SIZES) {
    await atSize(page, size);
    count = await triggers.count();
    for (let i = 0; i < count; i++) {
      const trigger = triggers.nth(i);
      const label = `${name}-dialog-${i}-${((await trigger.getAttribute("aria-label")) ?? (await trigger.textContent()) ?? "").trim().replace(/\W+/g, "-").toLowerCase().slice(0, 30)}`;
      await trigger.scrollIntoViewIfNeeded();
      await trigger.click();
      const dialog = page.locator("[role='dialog'], [role='alertdialog']").last();
      await expect(dialog).toBeVisible();
      // The page behind is locked while the dialog is open (the scroll lock's style applied).
      expect(await page.evaluate(() => getComputedStyle(document.body).overflow), `${label}: the page behind is locked`).toBe("hidden");
      await checkDialog(page, dialog, label, size);
      if (extra) await extra(dialog, size, label);
      if (size.label === "laptop") await expectAxeClean(page, label, "[role='dialog'], [role='alertdialog']");
      await page.keyboard.press("Escape");
      await expect(dialog).toBeHidden();
    }
  }
  await atSize(page, SIZES[0]);
  expectNoCspViolation(page, `${name}'s dialogs`);
  return count;
}

async function signedIn(page: Page, email: string): Promise<{ org: string; portal: string }> {
  await page.goto("/sign-in");
  await signIn(page, email);
  await expect(page).toHaveURL(/\/org\/[0-9a-f-]{36}$/);
  const org = new URL(page.url()).pathname;
  const portal = (await page.getByTestId("portal-row").first().getByRole("link").getAttribute("href")) ?? "";
  return { org, portal };
}

/**
 * A portal with what made the pages overflow: a long name, a file with a 75-character name, a
 * file linked to a task whose partner push failed (status and Resend in the name cell), history
 * of both, and an external id. Removed by the returned function.
 */
async function seedCrowdedPortal(orgId: string): Promise<{ portalId: string; remove: () => Promise<void> }> {
  const portalId = randomUUID();
  const taskId = randomUUID();
  const longFile = randomUUID();
  const linkedFile = randomUUID();
  await withDb(async (db) => {
    const admin = (await db.query<{ id: string }>(`SELECT id FROM "User" WHERE email = 'admin@demo.test'`)).rows[0]!.id;
    await db.query(`INSERT INTO "Portal" (id, "orgId", name, tags, "lastActivityAt", "updatedAt") VALUES ($1, $2, $3, $4, now(), now())`, [
      portalId,
      orgId,
      LONG_PORTAL_NAME,
      ["year-end", "corporate", "consolidated-group"],
    ]);
    await db.query(
      `INSERT INTO "ExternalSystemId" (id, "orgId", "portalId", system, "systemKey", value, "updatedAt") VALUES ($1, $2, $3, 'crm', 'crm', 'ACC-0042', now())`,
      [randomUUID(), orgId, portalId],
    );
    await db.query(`INSERT INTO "Task" (id, "orgId", "portalId", title, "createdById", "updatedAt") VALUES ($1, $2, $3, $4, $5, now())`, [
      taskId,
      orgId,
      portalId,
      "Send the signed engagement letter and the bank statements for the year",
      admin,
    ]);
    for (const [id, name, task] of [
      [longFile, LONG_FILE_NAME, null],
      [linkedFile, "bank-statements-2026.pdf", taskId],
    ] as const) {
      await db.query(
        `INSERT INTO "FileEntry" (id, "orgId", "portalId", name, extension, "contentType", size, "storageKey", "uploadedById", "taskId", "registeredAt", "updatedAt")
         VALUES ($1, $2, $3, $4, 'pdf', 'application/pdf', 1234567, $5, $6, $7, now(), now())`,
        [id, orgId, portalId, name, `orgs/${orgId}/files/${id}`, admin, task],
      );
      await db.query(
        `INSERT INTO "AuditLog" (id, "orgId", "portalId", "actorUserId", action, "targetType", "targetId", metadata) VALUES ($1, $2, $3, $4, 'file.uploaded', 'file', $5, $6)`,
        [randomUUID(), orgId, portalId, admin, id, JSON.stringify({ name })],
      );
    }
    await db.query(
      `INSERT INTO "PartnerPush" (id, "orgId", "portalId", "entityId", "fileId", event, status, "attemptCount", "lastError", "updatedAt")
       VALUES ($1, $2, $3, $4, $4, 'file.uploaded', 'failed', 5, 'The partner refused the file', now())`,
      [randomUUID(), orgId, portalId, linkedFile],
    );
  });
  return {
    portalId,
    remove: () =>
      withDb(async (db) => {
        await db.query(`DELETE FROM "AuditLog" WHERE "portalId" = $1`, [portalId]);
        await db.query(`DELETE FROM "Portal" WHERE id = $1`, [portalId]);
      }),
  };
}

test("pages without a session: every size, no CSP violation, axe", async ({ page }) => {
  await watchCsp(page);
  for (const [name, path] of [
    ["sign-in", "/sign-in"],
    ["check-email", "/sign-in/check-email"],
    ["forgot-password", "/sign-in/forgot"],
    ["forgot-password-sent", "/sign-in/forgot/sent"],
    ["reset-password-expired", "/reset-password/no-such-token"],
    ["oauth-error", "/oauth/error?reason=invalid_form"],
    ["invite-unknown", "/invite/no-such-token"],
    ["not-found", "/no-such-page"],
  ] as const) {
    await page.goto(path);
    await checkPage(page, name);
  }
  await page.goto("/sign-in/check-email");
  await expect(page.getByRole("heading", { level: 1, name: "Check your email" })).toBeVisible();
});

test("every page and dialog an admin sees: every size, no CSP violation, axe", async ({ page }) => {
  test.setTimeout(600_000);
  await watchCsp(page);
  const { org, portal } = await signedIn(page, "admin@demo.test");
  await expect(page).toHaveTitle("Portals · Client Portals");
  const orgId = org.split("/")[2]!;
  const portalBase = portal.replace(/\/folder\/main$/, "");
  const crowded = await seedCrowdedPortal(orgId);
  try {
    const crowdedBase = `${org}/vault/${crowded.portalId}`;
    const taskId = await withDb(
      async (db) =>
        (await db.query<{ id: string }>(`SELECT id FROM "Task" WHERE "portalId" = $1 AND "deletedAt" IS NULL LIMIT 1`, [portalBase.split("/")[4]])).rows[0]?.id,
    );
    const pages: [string, string][] = [
      ["admin-portals", org],
      ["admin-requests", `${org}/requests`],
      ["admin-portal", portal],
      ["admin-portal-tasks", `${portalBase}/tasks`],
      ...(taskId ? ([["admin-task", `${portalBase}/tasks/${taskId}`]] as [string, string][]) : []),
      ["admin-portal-guests", `${portalBase}/guests`],
      ["admin-portal-history", `${portalBase}/history`],
      ["admin-portal-deleted", `${portalBase}/deleted`],
      ["admin-portal-settings", `${portalBase}/settings`],
      ["admin-crowded-files", `${crowdedBase}/folder/main`],
      ["admin-crowded-history", `${crowdedBase}/history`],
      ["admin-crowded-settings", `${crowdedBase}/settings`],
      ["admin-profile", `${org}/settings/profile`],
      ["admin-members", `${org}/settings/members`],
      ["admin-workflow-states", `${org}/settings/workflow-states`],
      ["admin-guest-defaults", `${org}/settings/guest-defaults`],
      ["admin-partner", `${org}/settings/partner`],
      ["admin-api-settings", `${org}/settings/api`],
      ["admin-webhooks", `${org}/settings/webhooks`],
      ["admin-connected-apps", `${org}/settings/connected-apps`],
      ["admin-notifications", "/account/notifications"],
      ["admin-sessions", "/account/sessions"],
      ["admin-two-factor", "/account/two-factor"],
      ["admin-not-found", `${org}/no-such-page`],
    ];
    for (const [name, path] of pages) {
      await page.goto(path);
      await checkPage(page, name);
      await checkDialogs(page, name, name === "admin-portal-tasks" ? eachTaskType : undefined);
    }
    expect(taskTypesChecked, "New task was opened at every size and each of its types checked").toBe(SIZES.length);

    // The crowded portal's files table at the laptop size: the long name is cut short inside its
    // cell with the full name on hover and as the link's name, and the row's actions are in reach.
    await gotoStreamed(page, `${crowdedBase}/folder/main`);
    await atSize(page, SIZES[0]);
    const longRow = page.getByTestId("file-row").filter({ has: page.getByText(LONG_FILE_NAME) });
    await expect(longRow.getByRole("link", { name: LONG_FILE_NAME })).toHaveAttribute("title", LONG_FILE_NAME);
    await longRow.scrollIntoViewIfNeeded();
    await expect(longRow.getByRole("button", { name: `Actions for ${LONG_FILE_NAME}` })).toBeInViewport({ ratio: 1 });
    const linkedRow = page.getByTestId("file-row").filter({ hasText: "bank-statements-2026.pdf" });
    await expect(linkedRow.getByTestId("partner-push-status")).toBeVisible();
    await linkedRow.scrollIntoViewIfNeeded();
    await expect(linkedRow.getByRole("button", { name: "Actions for bank-statements-2026.pdf" })).toBeInViewport({ ratio: 1 });
    await expect(linkedRow.getByTestId("file-name")).toHaveCSS("text-overflow", "ellipsis");

    // The dialogs a row's action menu opens (no trigger of their own on the page), and the
    // preview, titled with the long name, at every size.
    for (const size of SIZES) {
      await atSize(page, size);
      for (const [item, name] of [
        ["Rename", "rename"],
        ["Move", "move"],
        ["Preview", "preview"],
      ] as const) {
        await longRow.scrollIntoViewIfNeeded();
        await longRow.getByRole("button", { name: `Actions for ${LONG_FILE_NAME}` }).click();
        await page.getByRole("menuitem", { name: item }).click();
        const dialog = page.getByRole("dialog");
        await expect(dialog).toBeVisible();
        await checkDialog(page, dialog, `admin-crowded-files-${name}`, size);
        await page.keyboard.press("Escape");
        await expect(dialog).toBeHidden();
      }
    }
    await atSize(page, SIZES[0]);
    expectNoCspViolation(page, "the files' row dialogs");

    // The portal's settings: renamed through the same domain function as PATCH (a name that is
    // only spaces is refused with what to do), external ids shown to read, not to edit.
    await gotoStreamed(page, `${crowdedBase}/settings`);
    const ids = page.getByTestId("settings-external-ids");
    await expect(ids).toContainText("crm");
    await expect(ids).toContainText("ACC-0042");
    await expect(ids.getByRole("textbox")).toHaveCount(0);
    const rename = page.getByTestId("rename-portal");
    await expect(rename.getByRole("textbox", { name: /^Name/ })).toHaveValue(LONG_PORTAL_NAME);
    await rename.getByRole("textbox", { name: /^Name/ }).fill("   ");
    await rename.getByRole("button", { name: "Save name" }).click();
    await expect(rename.getByText("Type a name for the portal")).toBeVisible();
    await rename.getByRole("textbox", { name: /^Name/ }).fill("Zephyr Holdings — renamed");
    await rename.getByRole("button", { name: "Save name" }).click();
    await expect(page.getByTestId("portal-name")).toHaveText("Zephyr Holdings — renamed");
    await expect(page).toHaveTitle("Settings · Zephyr Holdings — renamed · Client Portals");
    expect(
      await withDb(
        async (db) => (await db.query(`SELECT metadata FROM "AuditLog" WHERE "portalId" = $1 AND action = 'portal.renamed'`, [crowded.portalId])).rows,
      ),
    ).toEqual([{ metadata: { from: LONG_PORTAL_NAME, to: "Zephyr Holdings — renamed" } }]);
    // After a server action the page has rendered again (a new request, a new nonce): a dialog's
    // scroll lock still carries the loaded document's nonce.
    await page.getByTestId("delete-portal").click();
    await expect(page.getByRole("alertdialog")).toBeVisible();
    expect(await page.evaluate(() => getComputedStyle(document.body).overflow), "the page behind the dialog is locked").toBe("hidden");
    await page.keyboard.press("Escape");
    expectNoCspViolation(page, "the settings after a rename");

    // History says what happened; no column only repeats the kind of thing changed.
    await gotoStreamed(page, `${crowdedBase}/history`);
    await expect(page.getByRole("columnheader")).toHaveText(["When", "Who", "What"]);
    await expect(page.getByTestId("history-row").first()).toContainText(`Renamed the portal from “${LONG_PORTAL_NAME}” to “Zephyr Holdings — renamed”`);
    await expect(page.getByTestId("history-row").filter({ hasText: `Uploaded “${LONG_FILE_NAME}”` })).toHaveCount(1);
  } finally {
    await crowded.remove();
  }
});

/** Inside the New task dialog: each task type, the Create button in the window for each. */
let taskTypesChecked = 0;
async function eachTaskType(dialog: Locator, size: Size, label: string): Promise<void> {
  if (!(await dialog.getByRole("heading", { name: "New task" }).count())) return;
  taskTypesChecked++;
  const type = dialog.locator("#task-type");
  for (const option of ["Question?", "File Request", "Sign Document", "Fill Form", "General"]) {
    await type.selectOption(option);
    await expect(dialog.getByRole("button", { name: "Create task" }), `${label} (${option}): Create in the window`).toBeInViewport({ ratio: 1 });
    await dialog.page().screenshot({ path: `test-results/screenshots/${label}-${option.replace(/\W+/g, "-").toLowerCase()}-${size.width}x${size.height}.png` });
  }
  // Reminders: who gets them (D18: the assigned guests, else every guest of the portal), said as the rule is.
  await dialog.locator("#task-due").fill("2030-01-31T12:00");
  await expect(dialog.getByText(/Emails the assigned guests \(all of the portal's guests when no guest is assigned\)/)).toBeVisible();
  await type.selectOption("General");
}

test("on a phone the header is a menu that opens the navigation and Sign out", async ({ page }) => {
  await signedIn(page, "admin@demo.test");
  await page.setViewportSize({ width: 390, height: 844 });
  const menu = page.getByRole("button", { name: "Menu" });
  await expect(menu).toBeVisible();
  await expect(menu).toHaveAttribute("aria-expanded", "false");
  await expect(page.getByRole("button", { name: "Sign out" })).toBeHidden();
  await menu.click();
  await expect(menu).toHaveAttribute("aria-expanded", "true");
  await expect(page.getByRole("button", { name: "Sign out" })).toBeInViewport();
  await page.screenshot({ path: "test-results/screenshots/admin-menu-open-390x844.png" });
  await page.getByRole("link", { name: "Connected apps" }).click();
  await expect(page.getByRole("heading", { name: "Connected apps" })).toBeVisible();
  await expect(menu).toHaveAttribute("aria-expanded", "false");
  await page.setViewportSize({ width: 1280, height: 800 });
  await expect(menu).toBeHidden();
  await expect(page.getByRole("button", { name: "Sign out" })).toBeVisible();
});

test("a portal's page is titled with its name; not-found inside the app keeps the header", async ({ page }) => {
  const { org, portal } = await signedIn(page, "admin@demo.test");
  await page.goto(portal);
  const name = (await page.getByTestId("portal-name").textContent()) ?? "";
  expect(name).not.toBe("");
  await expect(page).toHaveTitle(`${name} · Client Portals`);

  for (const path of [`${org}/no-such-page`, `${org}/vault/00000000-0000-4000-8000-000000000000/folder/main`]) {
    const response = await page.goto(path);
    expect(response?.status(), path).toBe(404);
    await expect(page.getByRole("heading", { name: "Not found" })).toBeVisible();
    await expect(page.getByTestId("signed-in-as")).toHaveText("Avery Admin");
    await expect(page.getByRole("navigation", { name: "Settings" })).toBeVisible();
    await expect(page).toHaveTitle("Not found · Client Portals");
  }
});

test("on a phone the portal tabs say that more exist, and the current tab is in view", async ({ page }) => {
  const { portal } = await signedIn(page, "admin@demo.test");
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(portal);
  const tabs = page.getByRole("navigation", { name: "Portal views" });
  await expect(page.getByTestId("tabs-more-after")).toBeVisible();
  await expect(page.getByTestId("tabs-more-before")).toHaveCount(0);
  await page.goto(portal.replace(/\/folder\/main$/, "/settings"));
  await expect(tabs.getByRole("link", { name: "Settings" })).toBeInViewport({ ratio: 1 });
  await expect(page.getByTestId("tabs-more-before")).toBeVisible();
  await page.screenshot({ path: "test-results/screenshots/admin-portal-tabs-settings-390x844.png" });
});

test("a guest's pages and dialogs: every size, no CSP violation, axe; settings that do not apply to guests are not found", async ({ page }) => {
  await watchCsp(page);
  // Only a guest: sign-in lands on the guest home, whose links open the portals.
  await page.goto("/sign-in");
  await signIn(page, "guest@demo.test");
  await expect(page).toHaveURL(/\/guest$/);
  await checkPage(page, "guest-home");
  const portal = (await page.getByTestId("home-portal").first().getByRole("link").first().getAttribute("href")) ?? "";
  const org = /^\/org\/[0-9a-f-]{36}/.exec(portal)?.[0] ?? "";
  expect(org, `the guest home links ${portal}`).not.toBe("");
  for (const [name, path] of [
    ["guest-portals", org],
    ["guest-portal", portal],
    ["guest-notifications", "/account/notifications"],
  ] as const) {
    await page.goto(path);
    await checkPage(page, name);
    await checkDialogs(page, name);
  }
  for (const settings of ["connected-apps", "api", "webhooks"]) {
    const response = await page.goto(`${org}/settings/${settings}`);
    expect(response?.status(), settings).toBe(404);
    await expect(page.getByRole("heading", { name: "Not found" })).toBeVisible();
    await expect(page.getByTestId("signed-in-as")).toBeVisible();
  }
  await checkPage(page, "guest-settings-not-found");
});

test("sign-in: a wrong password keeps the email, and the password can be shown", async ({ page }) => {
  await page.goto("/sign-in");
  await page.getByLabel("Email", { exact: true }).fill("admin@demo.test");
  const password = page.getByLabel("Password", { exact: true });
  await password.fill("not-the-password");
  const show = page.getByRole("button", { name: "Show password" });
  await expect(show).toHaveAttribute("aria-pressed", "false");
  await show.click();
  await expect(password).toHaveAttribute("type", "text");
  await expect(page.getByRole("button", { name: "Show password" })).toHaveAttribute("aria-pressed", "true");
  await page.getByRole("button", { name: "Show password" }).click();
  await expect(password).toHaveAttribute("type", "password");
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await expect(page.getByText("That email and password do not match an account.")).toBeVisible();
  await expect(page.getByLabel("Email", { exact: true })).toHaveValue("admin@demo.test");
  await expect(page.getByLabel("Password", { exact: true })).toBeFocused();
  await page.getByLabel("Password", { exact: true }).fill(DEMO_PASSWORD);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await expect(page).toHaveURL(/\/org\/[0-9a-f-]{36}$/);
});

test("the API reference is Scalar, served by us: operations, search, no request to another host, a way back, axe", async ({ page, baseURL }) => {
  await watchCsp(page);
  const foreign: string[] = [];
  page.on("request", (r) => {
    const url = new URL(r.url());
    if (url.origin !== new URL(baseURL!).origin && url.protocol !== "data:" && url.protocol !== "blob:") foreign.push(r.url());
  });
  await page.goto("/docs/api");
  await expect(page).toHaveTitle(/API reference/);
  await page.waitForLoadState("networkidle");
  await page.screenshot({ path: "test-results/screenshots/api-reference-loaded-1280x800.png" });
  await expect(page.getByRole("heading", { name: "Client Portals API", exact: true })).toBeVisible();
  await checkPage(page, "api-reference");
  await page.getByText("Selected Auth Type").first().click();
  await page.screenshot({ path: "test-results/screenshots/api-reference-auth-1280x800.png" });
  expect(foreign).toEqual([]);
  await page.getByRole("link", { name: "Back to Client Portals" }).click();
  await expect(page).toHaveURL(/\/sign-in|\/org\/|\/guest/);
});
