import { createHash } from "node:crypto";
import { expect, test, type Page } from "@playwright/test";

import { startPartnerSandbox, type PartnerSandbox } from "../../scripts/partner-sandbox.ts";
import { saveScreenshot, seriousAxeFindings, signIn } from "../support";
import { startExecutor, stopExecutor, until } from "./support";

// The partner integration in the browser, against the production build with the local executor running the
// partner functions: connect the sandbox partner in settings, link a portal, watch its badge and
// an uploaded file's push status.

test.describe.configure({ mode: "serial" });

let sandbox: PartnerSandbox;

test.beforeAll(async () => {
  sandbox = await startPartnerSandbox();
  await until("the executor to sync the app", (s) => (s.functions.includes("client-portals-partner-push") ? true : undefined), 60_000);
});

test.afterAll(async () => {
  await startExecutor().catch(() => undefined);
  await sandbox?.close();
});

async function signedInAdmin(page: Page): Promise<string> {
  await page.goto("/sign-in");
  await signIn(page, "admin@demo.test");
  await expect(page).toHaveURL(/\/org\/[0-9a-f-]{36}$/);
  return new URL(page.url()).pathname;
}

/** Fits a laptop and a phone, a screenshot of each, and no serious or critical axe violation. */
async function checkLayout(page: Page, name: string): Promise<void> {
  for (const size of [
    { width: 1280, height: 800 },
    { width: 390, height: 844 },
  ]) {
    await page.setViewportSize(size);
    const { scrollWidth, innerWidth } = await page.evaluate(() => ({ scrollWidth: document.documentElement.scrollWidth, innerWidth: window.innerWidth }));
    expect(scrollWidth, `${name} is ${scrollWidth}px wide on a ${innerWidth}px screen`).toBeLessThanOrEqual(innerWidth);
    await saveScreenshot(page, `${name}-${size.width}x${size.height}`, { fullPage: true });
  }
  expect(await seriousAxeFindings(page), `axe on ${name}`).toEqual([]);
  await page.setViewportSize({ width: 1280, height: 800 });
}

test("an admin connects the partner in settings: a wrong key is named, Test connection, Connect", async ({ page }) => {
  const org = await signedInAdmin(page);
  await page.goto(`${org}/settings/partner`);
  await expect(page.getByRole("heading", { name: "Partner integration", level: 1 })).toBeVisible();
  await expect(page.getByTestId("partner-status")).toContainText("Not connected");
  await checkLayout(page, "partner-settings-empty");

  await page.getByLabel("Partner API address").fill(sandbox.url);
  await page.getByLabel("API key").fill("not-the-key");
  await page.getByRole("button", { name: "Test connection" }).click();
  await expect(page.getByText("The partner rejected this API key; check it and try again")).toBeVisible();
  await expect(page.getByLabel("API key")).toHaveAttribute("aria-invalid", "true");

  await page.getByLabel("API key").fill(sandbox.apiKey);
  await page.getByRole("button", { name: "Test connection" }).click();
  await expect(page.getByText("The partner accepted these credentials")).toBeVisible();
  await page.getByRole("button", { name: "Connect", exact: true }).click();
  await expect(page.getByTestId("partner-status")).toContainText("Connected");
  await expect(page.getByTestId("partner-status")).toContainText(sandbox.url);
  await expect(page.getByTestId("partner-status")).toContainText(`ending in ${sandbox.apiKey.slice(-4)}`);
  await checkLayout(page, "partner-settings-connected");
});

test("a member links a portal in the web: the badge goes from verifying to linked, and an upload is sent to the partner", async ({ page }) => {
  const org = await signedInAdmin(page);
  await page.getByTestId("portal-row").first().getByRole("link").first().click();
  await expect(page.getByTestId("files-tab")).toBeVisible();
  const portalUrl = page.url();

  // With the job engine paused the link stays at verifying, as a newcomer briefly sees it.
  await stopExecutor();
  await page.getByRole("button", { name: "Link to partner" }).click();
  await page.getByLabel("Partner customer id").fill("12345");
  await expect(page.getByText("A partner id is exactly 6 digits")).toBeVisible();
  await page.getByLabel("Partner customer id").fill("123456");
  await page.getByRole("button", { name: "Save", exact: true }).click();
  const badge = page.getByTestId("partner-badge");
  await expect(badge).toHaveAttribute("data-status", "verifying");
  await expect(badge).toContainText("Verifying partner id");
  await checkLayout(page, "partner-portal-verifying");
  await startExecutor();
  await expect(badge).toHaveAttribute("data-status", "linked", { timeout: 30_000 });
  await expect(badge).toContainText("Linked to Sandbox Accounting Ltd");
  expect(sandbox.log).toContainEqual({ kind: "verify", customer_id: "123456", found: true });

  const name = `Partner push ${Date.now()}.pdf`;
  const bytes = Buffer.from(`%PDF-1.4\n% pushed to the partner ${name}\n%%EOF\n`);
  await page.getByLabel("Choose files to upload").setInputFiles([{ name, mimeType: "application/pdf", buffer: bytes }]);
  const row = page.getByTestId("file-row").and(page.locator(`[data-name="${name}"]`));
  await expect(row).toBeVisible({ timeout: 30_000 });
  const status = row.getByTestId("partner-push-status");
  await expect(status).toHaveAttribute("data-status", "sent", { timeout: 30_000 });
  await expect(status).toContainText("Sent to partner");
  const received = sandbox.log.filter((e) => e.kind === "upload_received" && e.size === bytes.length);
  expect(received).toHaveLength(1);
  expect(received[0]).toMatchObject({ customer_id: "123456", sha256: createHash("sha256").update(bytes).digest("hex") });
  expect(page.url()).toContain(org);
  expect(portalUrl).toContain("/vault/");
  await checkLayout(page, "partner-portal-sent");
});
