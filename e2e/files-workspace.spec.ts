import { expect, test, type Page } from "@playwright/test";
import { createOtherOrganization, pdfBytes } from "./files-support";
import { gotoStreamed, seriousAxeFindings, signIn, saveScreenshot } from "./support";

// The Files tab of the member workspace in the production build: upload several files
// at once straight to storage, preview a PDF and an image, download through the signed-URL route,
// rename, move, delete (Undo) and restore; nobody outside the organization reaches any of it.
// Each page passes axe and is photographed on a laptop and a phone.

// Serial: later tests use the files the first one uploads. Long flows with axe on both sizes: 3 minutes each on a loaded machine.
test.describe.configure({ mode: "serial", timeout: 180_000 });

const SIZES = [
  { width: 1280, height: 800 },
  { width: 390, height: 844 },
] as const;

/** A 24x24 checkerboard PNG. */
const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAABgAAAAYCAIAAABvFaqvAAAANUlEQVR4nGO4o6GBhjAE7hCjhmHUIDoaRJ42TDWjBtHTIPK0YaoZNYieBpGnDVPNqEF0NAgAUjKjHyY63lMAAAAASUVORK5CYII=",
  "base64",
);

/** axe (no serious or critical violation), nothing wider than the screen, and screenshots on both sizes. */
async function checkPage(page: Page, name: string): Promise<void> {
  for (const size of SIZES) {
    await page.setViewportSize(size);
    await page.waitForLoadState("networkidle");
    const { scrollWidth, innerWidth, wide } = await page.evaluate(() => ({
      scrollWidth: document.documentElement.scrollWidth,
      innerWidth: window.innerWidth,
      // What sticks out, to name it in the failure.
      wide: [...document.querySelectorAll("body *")]
        .filter((e) => e.getBoundingClientRect().right > window.innerWidth + 1)
        .filter((e) => {
          // Not inside something that scrolls or clips sideways (tables and tabs do, on purpose).
          for (let a = e.parentElement; a; a = a.parentElement) if (getComputedStyle(a).overflowX !== "visible") return false;
          return true;
        })
        .slice(0, 5)
        .map((e) => `${e.tagName.toLowerCase()}.${e.className}`.slice(0, 120)),
    }));
    expect(scrollWidth, `${name} is ${scrollWidth}px wide on a ${innerWidth}px screen: ${wide.join(" | ")}`).toBeLessThanOrEqual(innerWidth);
    await saveScreenshot(page, `files-${name}-${size.width}x${size.height}`, { fullPage: true });
    expect(await seriousAxeFindings(page), `axe on ${name} at ${size.width}px`).toEqual([]);
  }
  await page.setViewportSize(SIZES[0]);
}

let portalUrl = "";

// The names this file's tests give their files and folder, unique to the run: a retry (a new
// worker) uploads again into the same portal, and lookups by name must find its rows alone.
const RUN = Date.now().toString(36);
const LETTER = `Engagement letter ${RUN}.pdf`;
const LOGO = `Logo ${RUN}.png`;
const FIRM_LOGO = `Firm logo ${RUN}.png`;
const FOLDER = `Year end 2026 ${RUN}`;

/**
 * What the CSP blocks of the file features: the upload PUT to storage (connect-src), pdf.js's worker
 * (worker-src), previews' fetches and images. Eval probes are left to e2e/security-headers.spec.ts,
 * which checks every main page for them.
 */
async function watchCsp(page: Page): Promise<string[]> {
  const violations: string[] = [];
  await page.exposeFunction("__filesCspViolation", (text: string) => violations.push(text));
  await page.addInitScript(() => {
    document.addEventListener("securitypolicyviolation", (e) => {
      if (e.blockedURI !== "eval")
        (window as unknown as { __filesCspViolation: (t: string) => void }).__filesCspViolation(`${e.violatedDirective} blocked ${e.blockedURI}`);
    });
  });
  return violations;
}

async function openPortal(page: Page): Promise<void> {
  await page.goto("/sign-in");
  await signIn(page, "admin@demo.test");
  await expect(page).toHaveURL(/\/org\/[0-9a-f-]{36}$/);
  if (!portalUrl) portalUrl = (await page.getByTestId("portal-row").first().getByRole("link").getAttribute("href")) ?? "";
  await gotoStreamed(page, portalUrl);
  await expect(page.getByTestId("files-tab")).toBeVisible();
}

const row = (page: Page, name: string) => page.getByTestId("file-row").and(page.locator(`[data-name="${name}"]`));

/**
 * Opens a row's "…" menu. The toasts of the steps before sit at the bottom right, where a row's
 * actions can be, and a toast under the pointer does not time out (Radix pauses it): they are
 * dismissed first, as a person would move them out of the way.
 */
async function openRowActions(page: Page, name: string): Promise<void> {
  const dismiss = page.getByTestId("toast").getByRole("button", { name: "Dismiss" });
  // A toast may leave by itself between the count and the click.
  for (let i = 0; i < 10 && (await dismiss.count()) > 0; i++) {
    await dismiss
      .first()
      .click({ timeout: 2_000 })
      .catch(() => undefined);
  }
  await expect(dismiss).toHaveCount(0);
  await row(page, name)
    .getByRole("button", { name: `Actions for ${name}` })
    .click();
}

test("uploads two files at once straight to storage, each with its progress bar finishing", async ({ page }) => {
  const csp = await watchCsp(page);
  await openPortal(page);
  await checkPage(page, "folder");
  await page.getByLabel("Choose files to upload").setInputFiles([
    { name: LETTER, mimeType: "application/pdf", buffer: await pdfBytes() },
    { name: LOGO, mimeType: "image/png", buffer: PNG },
  ]);
  const uploads = page.getByTestId("upload-row");
  await expect(uploads).toHaveCount(2);
  for (const name of [LETTER, LOGO]) {
    const upload = uploads.filter({ hasText: name });
    await expect(upload).toHaveAttribute("data-status", "done", { timeout: 30_000 });
    await expect(upload.getByRole("progressbar")).toHaveAttribute("aria-valuenow", "100");
  }
  await expect(page.getByTestId("toast").filter({ hasText: "2 files uploaded" })).toBeVisible();
  await expect(row(page, LETTER)).toBeVisible();
  await expect(row(page, LOGO)).toContainText("PNG");
  await expect(row(page, LOGO)).toContainText("Avery Admin");
  await checkPage(page, "after-upload");
  expect(csp).toEqual([]);
});

test("a too-large or refused file gets a message that names the fix", async ({ page }) => {
  await openPortal(page);
  await page.getByLabel("Choose files to upload").setInputFiles([{ name: "x".repeat(252) + ".txt", mimeType: "text/plain", buffer: Buffer.from("hi") }]);
  const upload = page.getByTestId("upload-row").last();
  await expect(upload).toHaveAttribute("data-status", "failed");
  await expect(upload.getByRole("alert")).toContainText("longer than 255 characters: rename the file");
});

test("previews a PDF (its first page is drawn) and an image in the page", async ({ page }) => {
  const csp = await watchCsp(page);
  await openPortal(page);
  await row(page, LETTER).getByRole("link", { name: LETTER }).click();
  await expect(page).toHaveURL(/\?file=[0-9a-f-]{36}$/);
  const dialog = page.getByRole("dialog", { name: LETTER });
  // pdf.js runs in its worker (same origin, allowed by worker-src), not on the main thread.
  await expect.poll(() => page.evaluate(() => performance.getEntriesByType("resource").some((r) => r.name.endsWith("/pdf-worker.mjs")))).toBe(true);
  await expect(dialog.getByTestId("pdf-preview")).toHaveAttribute("data-pages", "2");
  const first = dialog.getByTestId("pdf-page").first();
  await expect(first).toHaveAttribute("data-state", "rendered", { timeout: 20_000 });
  // Painted: the page's blue block is on the canvas (pdf.js drew it, not just a blank canvas).
  const painted = await first.evaluate((canvas: HTMLCanvasElement) => {
    const { data } = canvas.getContext("2d")!.getImageData(0, 0, canvas.width, canvas.height);
    let blue = 0;
    for (let i = 0; i < data.length; i += 4) if (data[i + 2]! > 120 && data[i]! < 60) blue++;
    return blue / (data.length / 4);
  });
  expect(painted).toBeGreaterThan(0.1);
  await checkPage(page, "preview-pdf");
  await page.keyboard.press("Escape");
  await expect(page).not.toHaveURL(/\?file=/);

  await row(page, LOGO).getByRole("link", { name: LOGO }).click();
  const image = page.getByRole("dialog", { name: LOGO }).getByTestId("image-preview");
  await expect(image).toBeVisible();
  expect(await image.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(24);
  await checkPage(page, "preview-image");
  expect(csp).toEqual([]);
});

test("downloads through a 5-minute signed URL signed in; signed out and older than 5 minutes refused", async ({ page, browser }) => {
  await openPortal(page);
  const fileId = new URL((await row(page, LOGO).getByRole("link", { name: LOGO }).getAttribute("href"))!, "http://x").searchParams.get("file")!;
  const downloadPath = `${portalUrl.replace(/\/folder\/main$/, "")}/file/${fileId}/download`;

  // The menu's Download saves the file under its name.
  const [download] = await Promise.all([
    page.waitForEvent("download"),
    (async () => {
      await openRowActions(page, LOGO);
      await page.getByRole("menuitem", { name: "Download" }).click();
    })(),
  ]);
  expect(download.suggestedFilename()).toBe(LOGO);

  const res = await page.request.get(downloadPath, { maxRedirects: 0 });
  expect(res.status()).toBe(303);
  const signed = new URL(res.headers()["location"]!);
  expect(signed.searchParams.get("X-Amz-Expires")).toBe("300");
  const bytes = await page.request.get(signed.href);
  expect(bytes.status()).toBe(200);
  expect(Buffer.from(await bytes.body()).equals(PNG)).toBe(true);

  // The same URL as if minted 5 minutes and 1 second ago: storage refuses it.
  const minted = signed.searchParams.get("X-Amz-Date")!;
  const at = Date.UTC(+minted.slice(0, 4), +minted.slice(4, 6) - 1, +minted.slice(6, 8), +minted.slice(9, 11), +minted.slice(11, 13), +minted.slice(13, 15));
  signed.searchParams.set("X-Amz-Date", new Date(at - 301_000).toISOString().replace(/[-:]/g, "").replace(/\.\d+/, ""));
  const expired = await page.request.get(signed.href);
  expect(expired.status()).toBe(403);
  expect(await expired.text()).toContain("Request has expired");

  const anonymous = await browser.newContext();
  const refused = await anonymous.request.get(downloadPath, { maxRedirects: 0 });
  expect(refused.status()).toBe(404);
  expect(refused.headers()["location"]).toBeUndefined();
  await anonymous.close();
});

test("creates a folder, renames, moves, deletes (Undo) and restores a file", async ({ page }) => {
  await openPortal(page);
  await page.getByRole("button", { name: "New folder" }).click();
  await page.getByLabel("Folder name").fill(FOLDER);
  await page.getByRole("button", { name: "Create folder" }).click();
  await expect(row(page, FOLDER)).toBeVisible();

  await openRowActions(page, LOGO);
  await page.getByRole("menuitem", { name: "Rename" }).click();
  await page.getByLabel("New name").fill(FIRM_LOGO);
  await page.getByRole("button", { name: "Rename", exact: true }).click();
  await expect(row(page, FIRM_LOGO)).toBeVisible();
  await expect(row(page, LOGO)).toHaveCount(0);

  await openRowActions(page, FIRM_LOGO);
  await page.getByRole("menuitem", { name: "Move" }).click();
  const move = page.getByRole("dialog", { name: `Move ${FIRM_LOGO}` });
  await checkPage(page, "move-dialog");
  await move.getByRole("radio", { name: FOLDER }).check();
  await move.getByRole("button", { name: "Move here" }).click();
  await expect(row(page, FIRM_LOGO)).toHaveCount(0);
  await row(page, FOLDER).getByRole("link").click();
  await expect(page.getByTestId("breadcrumbs")).toContainText(FOLDER);
  await expect(row(page, FIRM_LOGO)).toBeVisible();

  // Delete, then Undo from the toast.
  await openRowActions(page, FIRM_LOGO);
  await page.getByRole("menuitem", { name: "Delete" }).click();
  await expect(row(page, FIRM_LOGO)).toHaveCount(0);
  const toast = page.getByTestId("toast").filter({ hasText: `Deleted ${FIRM_LOGO}` });
  await toast.getByRole("button", { name: "Undo" }).click();
  await expect(row(page, FIRM_LOGO)).toBeVisible();

  // Delete again and restore from Recently deleted.
  await openRowActions(page, FIRM_LOGO);
  await page.getByRole("menuitem", { name: "Delete" }).click();
  await expect(row(page, FIRM_LOGO)).toHaveCount(0);
  await gotoStreamed(page, `${portalUrl.replace(/\/folder\/main$/, "")}/deleted`);
  const deleted = page.getByTestId("deleted-row").and(page.locator(`[data-name="${FIRM_LOGO}"]`));
  await expect(deleted).toBeVisible();
  await checkPage(page, "recently-deleted");
  await deleted.getByRole("button", { name: `Restore ${FIRM_LOGO}` }).click();
  await expect(page.getByTestId("toast").filter({ hasText: `Restored ${FIRM_LOGO}` })).toBeVisible();
  await expect(deleted).toHaveCount(0);
  await gotoStreamed(page, portalUrl);
  await row(page, FOLDER).getByRole("link").click();
  await expect(row(page, FIRM_LOGO)).toBeVisible();
});

test("a member of another organization gets not found for the portal, its preview and its download", async ({ page }) => {
  await openPortal(page);
  const demoPortal = portalUrl;
  const other = await createOtherOrganization();
  // The demo admin opens organization B's portal, preview link and download route.
  for (const path of [
    `/org/${other.orgId}/vault/${other.portalId}/folder/main`,
    `/org/${other.orgId}/vault/${other.portalId}/folder/main?file=${other.fileId}`,
  ]) {
    const response = await page.goto(path);
    expect(response?.status(), path).toBe(404);
    await expect(page.getByRole("heading", { name: "Not found" })).toBeVisible();
  }
  expect((await page.request.get(`/org/${other.orgId}/vault/${other.portalId}/file/${other.fileId}/download`, { maxRedirects: 0 })).status()).toBe(404);

  // B's admin opens the demo portal (and its file's preview) the other way round.
  await page.context().clearCookies();
  await page.goto("/sign-in");
  await signIn(page, other.adminEmail);
  await expect(page).toHaveURL(new RegExp(`/org/${other.orgId}$`));
  const response = await page.goto(demoPortal);
  expect(response?.status()).toBe(404);
  await expect(page.getByRole("heading", { name: "Not found" })).toBeVisible();
  await checkPage(page, "other-org-not-found");
});
