import { createHash, randomBytes, randomUUID } from "node:crypto";
import { expect, test, type Browser, type Locator, type Page } from "@playwright/test";
import { pdfBytes, withDb } from "./files-support";
import { DEMO_PASSWORD, gotoStreamed, luminances, saveScreenshot, seriousAxeFindings, signedInAt, signIn } from "./support";

// Every page and dialog, as each role sees it, on a laptop, a desktop and a phone. Each check names
// the page and the size it failed at:
// - nothing wider than the screen (no sideways page scroll);
// - every button and link can be reached: in the window, or scrolled to (a dialog's own actions
//   are in the window without scrolling: its footer sticks);
// - no element wider than its box: a table fits its card (the files table with a linked task, a
//   partner status and a 75-character name included), no text drawn past its cell, and text cut
//   short with an ellipsis shows its full value on hover (title) and in its accessible name;
// - pictures (images, a PDF's drawn pages) keep their proportions when the window narrows;
// - on a phone, tabs that do not fit say that more exist;
// - no Content-Security-Policy violation (the browser's `securitypolicyviolation` events and its
//   console messages);
// - no serious or critical accessibility violation (axe-core), the API reference included.
// Then the same page in the dark colour scheme (the system setting, emulated), at every size: its
// background is dark (a dialog's own box, for a dialog), with a screenshot; axe's colour rules
// (contrast, links told from text) run in the dark scheme at the laptop size only, as the colours
// depend on neither the size nor anything but the scheme; the layout does not depend on the scheme, so it is measured once, in the light one. The
// API reference is the exception: it keeps Scalar's own light theme in either scheme.
// With E2E_SCREENSHOTS=1 (npm run test:screenshots), a screenshot of each page and dialog at each
// size goes to test-results/screenshots/, the dark ones beside them ending in -dark.

const SIZES = [
  { label: "laptop", width: 1280, height: 800 },
  { label: "desktop", width: 1440, height: 900 },
  { label: "phone", width: 390, height: 844 },
] as const;
type Size = (typeof SIZES)[number];

/**
 * Bounds of the relative luminance of the page's background: a dark page's canvas is 0.01, a light
 * one's 0.95 (a dark scheme left half-done, a white card on the page, is over both bounds' gap).
 */
const DARK_BACKGROUND = 0.05;
const LIGHT_BACKGROUND = 0.8;

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
    // Pictures keep their proportions (a PDF page drawn for a wider window, then narrowed, included).
    for (const el of root.querySelectorAll("img, canvas")) {
      if (!visible(el) || getComputedStyle(el).objectFit !== "fill") continue;
      const [w, h] = el instanceof HTMLImageElement ? [el.naturalWidth, el.naturalHeight] : [(el as HTMLCanvasElement).width, (el as HTMLCanvasElement).height];
      if (!w || !h) continue;
      const r = el.getBoundingClientRect();
      if (Math.abs(r.height - (r.width * h) / w) > 2)
        problems.push(`${describe(el)} is stretched: ${Math.round(r.width)}x${Math.round(r.height)} for a ${w}x${h} picture`);
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

/**
 * No serious or critical axe finding on the page (or inside `include`). `colours` runs only the
 * rules a colour scheme can change (text contrast, links told from text by colour), for the dark
 * pass: the page's structure, names and
 * roles are the light pass's, already checked with every rule.
 */
async function expectAxeClean(page: Page, name: string, include?: string, colours = false): Promise<void> {
  const findings = await seriousAxeFindings(page, { ...(include ? { include } : {}), ...(colours ? { rules: ["color-contrast", "link-in-text-block"] } : {}) });
  expect.soft(findings, `axe on ${name}`).toEqual([]);
}

/** The relative luminance (WCAG) of what is painted behind `selector` (the first it matches). */
async function backgroundLuminance(page: Page, selector: string): Promise<number> {
  return (await luminances(page.locator(selector).first())).background;
}

/**
 * The page in the dark colour scheme (prefers-color-scheme, as the system setting sets it) at each
 * of `sizes`: its body and main are dark, with a screenshot ending in -dark; axe when at the laptop
 * size. `scope` is an open dialog (or a toast): only it is checked. The light scheme is back
 * afterwards; the window stays at the last of `sizes`.
 */
async function checkDark(page: Page, name: string, sizes: readonly Size[], scope?: string): Promise<void> {
  await page.emulateMedia({ colorScheme: "dark" });
  try {
    for (const size of sizes) {
      await atSize(page, size);
      for (const selector of scope ? [scope] : ["body", "main"]) {
        if (!(await page.locator(selector).count())) continue;
        const luminance = await backgroundLuminance(page, selector);
        expect.soft(luminance, `${name} (dark) at ${size.width}x${size.height}: the ${selector}'s background is dark`).toBeLessThan(DARK_BACKGROUND);
      }
      await saveScreenshot(page, `${name}-${size.width}x${size.height}-dark`, { fullPage: !scope });
      if (size === SIZES[0]) await expectAxeClean(page, `${name} (dark)`, scope, true);
    }
  } finally {
    await page.emulateMedia({ colorScheme: "light" });
  }
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
  await saveScreenshot(page, `${name}-${size.width}x${size.height}`, { fullPage: true });
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
  await saveScreenshot(page, `${name}-${size.width}x${size.height}`);
}

/** Every page check at every size, then axe and the CSP, at the laptop size; then the dark pass, at every size. */
async function checkPage(page: Page, name: string, dark = true): Promise<void> {
  await page.waitForLoadState("networkidle");
  for (const size of SIZES) {
    await atSize(page, size);
    await checkLayout(page, name, size);
  }
  await atSize(page, SIZES[0]);
  expect.soft(await backgroundLuminance(page, "body"), `${name}: the body's background is light`).toBeGreaterThan(LIGHT_BACKGROUND);
  await expectAxeClean(page, name);
  if (dark) {
    await checkDark(page, name, SIZES);
    await atSize(page, SIZES[0]);
  }
  expectNoCspViolation(page, name);
}

/**
 * Opens every dialog the page has a trigger for (Radix marks them aria-haspopup="dialog") at each
 * size, checks it, sees it in the dark scheme, runs axe on it in both schemes at the laptop size,
 * and closes it; `extra` runs inside each open dialog (e.g. each task type of New task).
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
      await checkDark(page, label, [size], "[role='dialog'], [role='alertdialog']");
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

/** The bulk request this spec sends; its tasks leave the portals afterwards. */
const BULK_TITLE = "Send your signed 2026 engagement letter";

/**
 * A bulk request sent as a member does: the portals ticked in the portal list, "Send request",
 * a title. The action opens the request's page, which refreshes itself while the request is sent
 * in the background; its id, once finished.
 */
async function sendBulkRequest(page: Page, org: string, portals: string[]): Promise<string> {
  await gotoStreamed(page, org);
  await page.waitForLoadState("networkidle");
  for (const name of portals) await page.getByRole("checkbox", { name: `Select ${name}` }).check();
  await page.getByTestId("bulk-request").click();
  const dialog = page.getByRole("dialog", { name: "Send a request to many portals" });
  await expect(dialog.getByText(`The ${portals.length} selected portals`)).toBeVisible();
  await dialog.getByLabel("Title").fill(BULK_TITLE);
  await dialog.getByTestId("bulk-send").click();
  await page.waitForURL(/\/requests\/[0-9a-f-]{36}$/);
  await expect(page.getByRole("heading", { name: /^Progress/ })).toContainText("Finished", { timeout: 30_000 });
  return new URL(page.url()).pathname.split("/").at(-1)!;
}

/**
 * The receiver of the webhook this spec adds. The e2e server takes the production rule for
 * webhook URLs (https, public addresses only: no OUTBOUND_ALLOW_PRIVATE), so a loopback URL is
 * refused; an IP literal needs no DNS. The webhook subscribes to file.signed alone, which nothing
 * in this spec causes, and is deleted at the end: nothing is ever sent to it.
 */
const WEBHOOK_URL = "https://93.184.215.14/webhooks/client-portals";

/** A webhook added on the Webhooks page as an administrator does; its id, from its Delivery log link. */
async function addWebhook(page: Page, org: string): Promise<string> {
  await gotoStreamed(page, `${org}/settings/webhooks`);
  await page.waitForLoadState("networkidle");
  await page.getByLabel("Endpoint URL").fill(WEBHOOK_URL);
  await page.getByRole("checkbox", { name: "file.signed" }).check();
  await page.getByRole("button", { name: "Add webhook" }).click();
  await expect(page.getByText("Webhook created.")).toBeVisible();
  const log = page.getByTestId("webhook").filter({ hasText: WEBHOOK_URL }).getByRole("link", { name: "Delivery log" });
  return ((await log.getAttribute("href")) ?? "").split("/").at(-1)!;
}

/**
 * A dialog the page opens on arrival (the file preview of `?file=`): checked at each size and
 * seen dark at each size, axe on it in both schemes at the laptop size.
 */
async function checkOpenDialog(page: Page, name: string): Promise<void> {
  const dialog = page.getByRole("dialog");
  await expect(dialog).toBeVisible();
  for (const size of SIZES) {
    await atSize(page, size);
    await checkDialog(page, dialog, `${name}-dialog`, size);
  }
  await atSize(page, SIZES[0]);
  await expectAxeClean(page, `${name}-dialog`, "[role='dialog']");
  await checkDark(page, `${name}-dialog`, SIZES, "[role='dialog']");
  await atSize(page, SIZES[0]);
  expectNoCspViolation(page, `${name}'s dialog`);
}

// The tests of this file need nothing from one another: they run in whichever worker is free
// (each worker has a server of its own), so the two halves of the admin's pages run side by side.
test.describe.configure({ mode: "parallel" });

test("pages without a session: every size, no CSP violation, axe", async ({ page }) => {
  test.setTimeout(240_000);
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

/**
 * The pages a link in an email opens: a password reset, a guest's invitation to a portal and a
 * colleague's invitation to the organization, each with a live token (rows written here with the
 * hash the app stores, the token only in the link, as the emails carry it); and the consent screen
 * an app's authorization request opens. All removed afterwards.
 */
const CONSENT_REDIRECT = "http://127.0.0.1:9/callback";

test("pages opened from an email's or an app's link: password reset, a guest's and a colleague's invitation, the consent screen: every size, no CSP violation, axe", async ({
  page,
}) => {
  test.setTimeout(240_000);
  await watchCsp(page);
  const token = () => randomBytes(32).toString("base64url");
  const hash = (value: string) => createHash("sha256").update(value).digest("hex");
  const [reset, guest, member] = [token(), token(), token()];
  const email = `pages-${randomUUID()}@example.com`;
  const ids = await withDb(async (db) => {
    const { id: userId } = (await db.query<{ id: string }>(`SELECT id FROM "User" WHERE email = 'member@demo.test'`)).rows[0]!;
    const { id: portalId, orgId } = (
      await db.query<{ id: string; orgId: string }>(`SELECT id, "orgId" FROM "Portal" WHERE name LIKE 'Acme Ltd%' AND "deletedAt" IS NULL LIMIT 1`)
    ).rows[0]!;
    const expiresAt = new Date(Date.now() + 3_600_000);
    const resetId = (
      await db.query<{ id: string }>(`INSERT INTO "PasswordResetToken" (id, "userId", "tokenHash", "expiresAt") VALUES ($1, $2, $3, $4) RETURNING id`, [
        randomUUID(),
        userId,
        hash(reset),
        expiresAt,
      ])
    ).rows[0]!.id;
    const invitationId = (
      await db.query<{ id: string }>(
        `INSERT INTO "Invitation" (id, "orgId", "portalId", email, "tokenHash", "expiresAt") VALUES ($1, $2, $3, $4, $5, $6) RETURNING id`,
        [randomUUID(), orgId, portalId, email, hash(guest), expiresAt],
      )
    ).rows[0]!.id;
    const memberInvitationId = (
      await db.query<{ id: string }>(`INSERT INTO "MemberInvitation" (id, "orgId", email, "tokenHash", "expiresAt") VALUES ($1, $2, $3, $4, $5) RETURNING id`, [
        randomUUID(),
        orgId,
        email,
        hash(member),
        expiresAt,
      ])
    ).rows[0]!.id;
    const clientId = `cpc_pages_${randomBytes(8).toString("hex")}`;
    await db.query(
      `INSERT INTO "OAuthClient" (id, "orgId", name, "clientId", "secretHash", "secretHint", "redirectUris", "allowedScopes", "publisherName", "updatedAt")
       VALUES ($1, $2, 'Ledger sync', $3, $4, 'abcd', $5, $6, 'Ledger Co', now())`,
      [randomUUID(), orgId, clientId, hash(token()), [CONSENT_REDIRECT], ["portal:read", "task:read"]],
    );
    return { resetId, invitationId, memberInvitationId, clientId };
  });
  try {
    for (const [name, path, live] of [
      ["reset-password", `/reset-password/${reset}`, page.getByRole("button", { name: "Save the password and sign in" })],
      ["invite-guest", `/invite/${guest}`, page.getByText("Demo Accounting LLP invited you to Acme Ltd").first()],
      ["join-organization", `/join/${member}`, page.getByText("Join Demo Accounting LLP as a member").first()],
    ] as const) {
      await page.goto(path);
      await expect(live, `${name} is the page of a live link`).toBeVisible();
      await checkPage(page, name);
    }
    // The consent screen an app opens, seen by the admin (the app registered as in API settings).
    await page.goto("/sign-in");
    await signIn(page, "admin@demo.test");
    await expect(page).toHaveURL(/\/org\/[0-9a-f-]{36}$/);
    await page.goto(
      `/oauth/authorize?${new URLSearchParams({ response_type: "code", client_id: ids.clientId, redirect_uri: CONSENT_REDIRECT, scope: "portal:read task:read", state: "pages" })}`,
    );
    await expect(page.getByRole("button", { name: "Approve" })).toBeVisible();
    await checkPage(page, "oauth-consent");
  } finally {
    await withDb(async (db) => {
      await db.query(`DELETE FROM "OAuthClient" WHERE "clientId" = $1`, [ids.clientId]);
      await db.query(`DELETE FROM "PasswordResetToken" WHERE id = $1`, [ids.resetId]);
      await db.query(`DELETE FROM "Invitation" WHERE id = $1`, [ids.invitationId]);
      await db.query(`DELETE FROM "MemberInvitation" WHERE id = $1`, [ids.memberInvitationId]);
    });
  }
});

/**
 * An admin signed in, and a portal with everything that made pages overflow (seedCrowdedPortal),
 * which the caller removes.
 */
async function adminPagesSetup(page: Page) {
  await watchCsp(page);
  const { org, portal } = await signedIn(page, "admin@demo.test");
  await expect(page).toHaveTitle("Portals · Client Portals");
  const orgId = org.split("/")[2]!;
  const portalBase = portal.replace(/\/folder\/main$/, "");
  const crowded = await seedCrowdedPortal(orgId);
  return { org, orgId, portal, portalBase, portalId: portalBase.split("/")[4]!, crowded };
}

/** Each page's checks at every size, then each dialog it opens (see checkPage, checkDialogs). */
async function checkAdminPages(page: Page, pages: [string, string][]): Promise<void> {
  for (const [name, path] of pages) {
    await page.goto(path);
    await checkPage(page, name);
    // The preview is a dialog over the folder: the folder's own dialogs are checked on admin-portal.
    if (name === "admin-file-preview") await checkOpenDialog(page, name);
    else await checkDialogs(page, name, name === "admin-portal-tasks" ? eachTaskType : name === "admin-portal-guests" ? invitePermissions : undefined);
  }
}

test("every page and dialog an admin sees outside a portal: every size, no CSP violation, axe", async ({ page }) => {
  test.setTimeout(900_000);
  const { org, orgId, portalId, crowded } = await adminPagesSetup(page);
  try {
    // A bulk request to a portal with a guest (it gets the task) and to the crowded one (no guest:
    // skipped), and a webhook.
    const portalName = (await withDb((db) => db.query<{ name: string }>(`SELECT name FROM "Portal" WHERE id = $1`, [portalId]))).rows[0]!.name;
    const bulkId = await sendBulkRequest(page, org, [portalName, LONG_PORTAL_NAME]);
    const webhookId = await addWebhook(page, org);
    await checkAdminPages(page, [
      ["admin-portals", org],
      ["admin-inbox", `${org}/inbox`],
      ["admin-requests", `${org}/requests`],
      ["admin-bulk-request", `${org}/requests/${bulkId}`],
      ["admin-profile", `${org}/settings/profile`],
      ["admin-members", `${org}/settings/members`],
      ["admin-workflow-states", `${org}/settings/workflow-states`],
      ["admin-guest-defaults", `${org}/settings/guest-defaults`],
      ["admin-partner", `${org}/settings/partner`],
      ["admin-api-settings", `${org}/settings/api`],
      ["admin-webhooks", `${org}/settings/webhooks`],
      ["admin-webhook", `${org}/settings/webhooks/${webhookId}`],
      ["admin-connected-apps", `${org}/settings/connected-apps`],
      ["admin-notifications", "/account/notifications"],
      ["admin-sessions", "/account/sessions"],
      ["admin-two-factor", "/account/two-factor"],
      ["admin-not-found", `${org}/no-such-page`],
    ]);
  } finally {
    await crowded.remove();
    // The demo organization is shared with the tests after this one in its worker: no webhook, no bulk task.
    await withDb(async (db) => {
      await db.query(`DELETE FROM "Webhook" WHERE "orgId" = $1 AND url = $2`, [orgId, WEBHOOK_URL]);
      await db.query(`UPDATE "Task" SET "deletedAt" = now() WHERE "orgId" = $1 AND title = $2`, [orgId, BULK_TITLE]);
    });
  }
});

test("every page and dialog an admin sees in a portal: every size, no CSP violation, axe", async ({ page }) => {
  test.setTimeout(900_000);
  const { org, portal, portalBase, portalId, crowded } = await adminPagesSetup(page);
  try {
    const crowdedBase = `${org}/vault/${crowded.portalId}`;
    const taskId = await withDb(
      async (db) => (await db.query<{ id: string }>(`SELECT id FROM "Task" WHERE "portalId" = $1 AND "deletedAt" IS NULL LIMIT 1`, [portalId])).rows[0]?.id,
    );
    // A file of the portal to preview, in its folder.
    const file = await withDb(
      async (db) =>
        (
          await db.query<{ id: string; parentId: string | null }>(
            `SELECT id, "parentId" FROM "FileEntry" WHERE "portalId" = $1 AND NOT "isFolder" AND "deletedAt" IS NULL ORDER BY name LIMIT 1`,
            [portalId],
          )
        ).rows[0]!,
    );
    // A message, sent as a member sends one.
    await gotoStreamed(page, `${portalBase}/messages`);
    await page.waitForLoadState("networkidle");
    await page.getByLabel("Your message").fill("Thank you for the statements. The draft accounts follow next week.");
    await page.getByRole("button", { name: "Send message" }).click();
    await expect(page.getByTestId("message").filter({ hasText: "The draft accounts follow next week." })).toBeVisible();
    taskTypesChecked = 0;
    await checkAdminPages(page, [
      ["admin-portal", portal],
      ["admin-file-preview", `${portalBase}/folder/${file.parentId ?? "main"}?file=${file.id}`],
      ["admin-portal-tasks", `${portalBase}/tasks`],
      ...(taskId ? ([["admin-task", `${portalBase}/tasks/${taskId}`]] as [string, string][]) : []),
      ["admin-portal-messages", `${portalBase}/messages`],
      ["admin-portal-guests", `${portalBase}/guests`],
      ["admin-portal-history", `${portalBase}/history`],
      ["admin-portal-deleted", `${portalBase}/deleted`],
      ["admin-portal-settings", `${portalBase}/settings`],
      ["admin-crowded-files", `${crowdedBase}/folder/main`],
      ["admin-crowded-history", `${crowdedBase}/history`],
      ["admin-crowded-settings", `${crowdedBase}/settings`],
    ]);
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

/**
 * Inside the invite dialog: the permissions guests will get are a group of their own ("Permissions"),
 * one per line, each with what it means.
 */
async function invitePermissions(dialog: Locator, size: Size, label: string): Promise<void> {
  const group = dialog.getByRole("group", { name: "Permissions" });
  if (!(await group.count())) return;
  const items = group.getByTestId("permission");
  await expect(items, `${label}: the four permissions`).toHaveCount(4);
  const boxes = await items.evaluateAll((els) => els.map((el) => el.getBoundingClientRect()).map((r) => ({ top: r.top, bottom: r.bottom })));
  for (let i = 1; i < boxes.length; i++)
    expect(boxes[i]!.top, `${label}: permission ${i + 1} starts below the one before`).toBeGreaterThanOrEqual(boxes[i - 1]!.bottom - 1);
  await expect(items.first(), `${label}: a permission says what it means`).toContainText("Open the portal");
}

/** Inside the New task dialog: each task type, the Create button in the window for each. */
let taskTypesChecked = 0;
async function eachTaskType(dialog: Locator, size: Size, label: string): Promise<void> {
  if (!(await dialog.getByRole("heading", { name: "New task" }).count())) return;
  taskTypesChecked++;
  const type = dialog.locator("#task-type");
  for (const option of ["Question?", "File Request", "Sign Document", "Fill Form", "General"]) {
    await type.selectOption(option);
    await expect(dialog.getByRole("button", { name: "Create task" }), `${label} (${option}): Create in the window`).toBeInViewport({ ratio: 1 });
    await saveScreenshot(dialog.page(), `${label}-${option.replace(/\W+/g, "-").toLowerCase()}-${size.width}x${size.height}`);
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
  await saveScreenshot(page, "admin-menu-open-390x844");
  // The developer pages are one entry that opens in place.
  const developers = page.getByRole("button", { name: "Developers" });
  await developers.click();
  await expect(developers).toHaveAttribute("aria-expanded", "true");
  await saveScreenshot(page, "admin-menu-developers-390x844");
  await page.locator("#developers-menu").getByRole("link", { name: "Connected apps" }).click();
  await expect(page.getByRole("heading", { name: "Connected apps" })).toBeVisible();
  await expect(menu).toHaveAttribute("aria-expanded", "false");
  await page.setViewportSize({ width: 1280, height: 800 });
  await expect(menu).toBeHidden();
  await expect(page.getByRole("button", { name: "Sign out" })).toBeVisible();
});

/**
 * The header's height when its content is one row: 12 px of padding above and below the tallest
 * control (the 40-px Sign out button) and the 1-px border make 65 px; a second row adds that row's
 * controls and the 12-px gap, over 100 px in all. 80 px leaves room for font rendering only.
 */
const ONE_ROW_HEADER = 80;

test("the firm's header: one row at 1280 px on every page, account pages included, with one Developers entry; every settings page has one name", async ({
  page,
}) => {
  test.setTimeout(180_000);
  const { org, portal } = await signedIn(page, "admin@demo.test");
  await page.setViewportSize({ width: 1280, height: 800 });
  const header = page.getByTestId("app-header");
  const nav = header.getByRole("navigation", { name: "Main" });
  for (const path of [
    org,
    `${org}/inbox`,
    `${org}/requests`,
    portal,
    `${org}/settings/profile`,
    `${org}/settings/webhooks`,
    "/account/notifications",
    "/account/sessions",
    "/account/two-factor",
  ]) {
    await page.goto(path);
    await expect(header, path).toHaveAttribute("data-header", "firm");
    await expect(header.getByTestId("signed-in-as"), path).toHaveText("Avery Admin");
    await expect(nav.getByRole("link"), path).toHaveText([/^Inbox/, "Portals", "Settings"]);
    await expect(nav.getByRole("button"), path).toHaveText(["Developers"]);
    const height = (await header.boundingBox())!.height;
    expect(height, `${path}: the header is one row at 1280 px`).toBeLessThan(ONE_ROW_HEADER);
  }
  await saveScreenshot(page, "admin-header-account-1280x800");

  // The settings tabs, each page's h1 and its title say one name.
  await page.goto(`${org}/settings/profile`);
  const tabs = page.getByRole("navigation", { name: "Organization settings" });
  const names = ["Organization profile", "Members", "Workflow states", "Guest defaults", "Partner integration", "API settings", "Webhooks", "Connected apps"];
  await expect(tabs.getByRole("link")).toHaveText(names);
  for (const name of names) {
    await tabs.getByRole("link", { name, exact: true }).click();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(name);
    await expect(page).toHaveTitle(`${name} · Client Portals`);
  }
  // The Developers menu names them as the tabs do; a disclosure that Escape closes.
  const developers = nav.getByRole("button", { name: "Developers" });
  await expect(developers).toHaveAttribute("aria-expanded", "false");
  await developers.click();
  await expect(developers).toHaveAttribute("aria-expanded", "true");
  const developerLinks = page.locator(`#${await developers.getAttribute("aria-controls")}`).getByRole("link");
  await expect(developerLinks).toHaveText(["API settings", "Webhooks", "Connected apps"]);
  await saveScreenshot(page, "admin-header-developers-1280x800");
  await page.keyboard.press("Escape");
  await expect(developers).toHaveAttribute("aria-expanded", "false");
  await expect(developers).toBeFocused();
  for (const name of ["API settings", "Webhooks", "Connected apps"]) {
    await developers.click();
    await developerLinks.getByText(name, { exact: true }).click();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(name);
    await expect(tabs.getByRole("link", { name, exact: true })).toHaveAttribute("aria-current", "page");
  }
  // The account menu names the account pages as their h1s do.
  const account = header.getByRole("button", { name: "Your account: Avery Admin" });
  for (const name of ["My notifications", "Signed-in sessions", "Two-factor authentication"]) {
    await account.click();
    await page
      .locator(`#${await account.getAttribute("aria-controls")}`)
      .getByRole("link", { name, exact: true })
      .click();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(name);
    await expect(page).toHaveTitle(`${name} · Client Portals`);
    await expect(header).toHaveAttribute("data-header", "firm");
  }
});

test("a client's header is the same on their home, in a portal and on their account pages, one row at 1280 px", async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto("/sign-in");
  await signIn(page, "client@demo.test");
  await expect(page).toHaveURL(/\/guest$/);
  const portal = (await page.getByTestId("home-portal").first().getByRole("link").first().getAttribute("href")) ?? "";
  expect(portal).toMatch(/\/client\//);
  const header = page.getByTestId("app-header");
  const shapes: unknown[] = [];
  for (const path of ["/guest", portal, "/account/notifications"]) {
    await page.goto(path);
    await expect(header, path).toHaveAttribute("data-header", "client");
    shapes.push({
      path,
      nav: await header.getByRole("navigation", { name: "Main" }).getByRole("link").allTextContents(),
      account: await header.getByTestId("signed-in-as").textContent(),
      controls: await header.getByRole("button").allTextContents(),
      selects: await header.getByRole("combobox").count(),
    });
    expect((await header.boundingBox())!.height, `${path}: the header is one row`).toBeLessThan(ONE_ROW_HEADER);
    await saveScreenshot(page, `guest-header-${path === portal ? "portal" : path.split("/").at(-1)}-1280x800`);
  }
  const same = { nav: ["Your portals"], account: "Casey Client", controls: ["Your account: Casey Client", "Sign out"], selects: 0 };
  expect(shapes).toEqual(["/guest", portal, "/account/notifications"].map((path) => ({ path, ...same })));
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
    await expect(page.getByRole("navigation", { name: "Main" })).toBeVisible();
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
  await saveScreenshot(page, "admin-portal-tabs-settings-390x844");
});

/** The Sign Document this spec asks the demo guest for; it leaves the portal afterwards. */
const SIGN_TITLE = "Sign the 2026 engagement letter";

/**
 * A Sign Document made by the firm as signers.spec makes one: New task in the portal, the PDF
 * uploaded in the dialog, assigned to `assignee` (the label of its checkbox). In a browser context
 * of its own, signed in as the demo admin; the task's id.
 */
async function createSignTask(browser: Browser, orgId: string, portalId: string, assignee: string): Promise<string> {
  const tasksPath = `/org/${orgId}/vault/${portalId}/tasks`;
  const firm = await signedInAt(browser, "admin@demo.test", SIZES[0], tasksPath);
  try {
    await gotoStreamed(firm, tasksPath);
    await firm.waitForLoadState("networkidle");
    await firm.getByTestId("new-task").click();
    const dialog = firm.getByRole("dialog", { name: "New task" });
    await dialog.getByLabel("Type").selectOption("Sign Document");
    await dialog.getByLabel("Title").fill(SIGN_TITLE);
    await dialog.getByText("Or upload a new PDF").click();
    await dialog
      .getByLabel("Choose files to upload")
      .setInputFiles({ name: "Engagement letter 2026.pdf", mimeType: "application/pdf", buffer: await pdfBytes() });
    await expect(dialog.getByText("Engagement letter 2026.pdf is the document to sign.")).toBeVisible({ timeout: 30_000 });
    await dialog.getByRole("checkbox", { name: assignee }).check();
    await dialog.getByRole("button", { name: "Create task" }).click();
    await expect(firm.getByTestId("toast").filter({ hasText: `Task "${SIGN_TITLE}" created` })).toBeVisible();
  } finally {
    await firm.context().close();
  }
  const task = await withDb((db) =>
    db.query<{ id: string }>(`SELECT id FROM "Task" WHERE "portalId" = $1 AND title = $2 AND "deletedAt" IS NULL`, [portalId, SIGN_TITLE]),
  );
  return task.rows[0]!.id;
}

test("a guest's pages and dialogs: every size, no CSP violation, axe; settings that do not apply to guests are not found", async ({ page, browser }) => {
  test.setTimeout(300_000);
  await watchCsp(page);
  // Only a guest: sign-in lands on the guest home, whose links open the portals.
  await page.goto("/sign-in");
  await signIn(page, "guest@demo.test");
  await expect(page).toHaveURL(/\/guest$/);
  await checkPage(page, "guest-home");
  const portal = (await page.getByTestId("home-portal").first().getByRole("link").first().getAttribute("href")) ?? "";
  const [, orgId = "", portalId = ""] = /^\/org\/([0-9a-f-]{36})\/client\/([0-9a-f-]{36})/.exec(portal) ?? [];
  const org = `/org/${orgId}`;
  expect(portalId, `the guest home links ${portal}`).not.toBe("");
  // A document for the guest to sign, in the portal the home links.
  const signTaskId = await createSignTask(browser, orgId, portalId, "Gray Guest (guest@demo.test)");
  try {
    for (const [name, path] of [
      ["guest-portals", org],
      ["guest-portal", portal],
      ["guest-sign", `${org}/client/${portalId}/sign/${signTaskId}`],
      ["guest-notifications", "/account/notifications"],
    ] as const) {
      await page.goto(path);
      // The document's first page drawn before the page is measured.
      if (name === "guest-sign") await expect(page.getByTestId("pdf-page").first()).toHaveAttribute("data-state", "rendered");
      await checkPage(page, name);
      await checkDialogs(page, name);
    }
  } finally {
    await withDb(async (db) => {
      await db.query(`UPDATE "FileEntry" SET "deletedAt" = now() WHERE id = (SELECT "documentFileId" FROM "Task" WHERE id = $1)`, [signTaskId]);
      await db.query(`UPDATE "Task" SET "deletedAt" = now() WHERE id = $1`, [signTaskId]);
    });
  }
  for (const settings of ["connected-apps", "api", "webhooks"]) {
    const response = await page.goto(`${org}/settings/${settings}`);
    expect(response?.status(), settings).toBe(404);
    await expect(page.getByRole("heading", { name: "Not found" })).toBeVisible();
    await expect(page.getByTestId("signed-in-as")).toBeVisible();
  }
  await checkPage(page, "guest-settings-not-found");
});

test("a toast in the dark scheme: a dark background, axe, at every size", async ({ page }) => {
  await watchCsp(page);
  const { org } = await signedIn(page, "admin@demo.test");
  // A portal of this test's own, whose workflow state it changes.
  const own = await seedCrowdedPortal(org.split("/")[2]!);
  try {
    await gotoStreamed(page, `${org}/vault/${own.portalId}/folder/main`);
    await page.waitForLoadState("networkidle");
    const select = page.getByTestId("workflow-select");
    for (const [size, state] of [
      [SIZES[0], "In review"],
      [SIZES[1], "Complete"],
      [SIZES[2], "In review"],
    ] as const) {
      await atSize(page, size);
      await page.emulateMedia({ colorScheme: "dark" });
      await select.selectOption({ label: state });
      const toast = page.getByTestId("toast").filter({ hasText: `Moved to ${state}` });
      await expect(toast).toBeVisible();
      // The pointer on the toast holds it open while it is checked.
      await toast.hover();
      await checkDark(page, "admin-toast", [size], "[data-testid='toast']");
      await toast.getByRole("button", { name: "Dismiss" }).click();
      await expect(page.getByTestId("toast")).toHaveCount(0);
    }
    expectNoCspViolation(page, "the toasts");
  } finally {
    await own.remove();
  }
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
  await saveScreenshot(page, "api-reference-loaded-1280x800");
  await expect(page.getByRole("heading", { name: "Client Portals API", exact: true })).toBeVisible();
  // Scalar's own light theme (components/api-reference.tsx) in either scheme.
  await checkPage(page, "api-reference", false);
  await page.getByText("Selected Auth Type").first().click();
  await saveScreenshot(page, "api-reference-auth-1280x800");
  expect(foreign).toEqual([]);
  await page.getByRole("link", { name: "Back to Client Portals" }).click();
  await expect(page).toHaveURL(/\/sign-in|\/org\/|\/guest/);
});
