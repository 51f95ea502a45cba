import { expect, type Page } from "@playwright/test";
import { query } from "./db";
import { checkScreen, signedInAt } from "./support";

// What the specs of the firm-client loop share (review-loop, inbox-messages): a page checked at a
// screen size, a signed-in page of its own browser context, and a captured email waited for.

/** The seeded Northwind Advisors portal both specs work in (scripts/seed-guest.ts). */
export const PORTAL = "Rivera Family — estate planning";
export const FIRM = "nora@northwind.test";
export const CLIENT = "client@demo.test";
export const LAPTOP = { width: 1280, height: 800 };
export const PHONE = { width: 390, height: 844 };

export const toast = (page: Page, text: string | RegExp) => page.getByTestId("toast").filter({ hasText: text });

/** The seeded portal's organization and id. */
export async function seededPortal(): Promise<{ orgId: string; portalId: string }> {
  const [portal] = await query<{ id: string; orgId: string }>(`SELECT "id", "orgId" FROM "Portal" WHERE "name" = $1`, [PORTAL]);
  return { orgId: portal!.orgId, portalId: portal!.id };
}

/** Screenshot at the size, nothing wider than the screen, no serious or critical axe violation. */
export const check = (page: Page, name: string, size: { width: number; height: number }, prefix = "loop"): Promise<void> =>
  checkScreen(page, `${prefix}-${name}`, size);

export const signedIn = signedInAt;

/** The newest captured email to `to` of a template whose text contains `needle`, waited for. */
export async function mailTo(to: string, template: string, needle: string): Promise<{ subject: string; text: string; html: string }> {
  let found: { subject: string; text: string; html: string } | undefined;
  await expect
    .poll(
      async () => {
        const rows = await query<{ subject: string; text: string; html: string }>(
          `SELECT "subject", "text", "html" FROM "OutboundEmail" WHERE "to" = $1 AND "template" = $2 AND "text" LIKE $3 ORDER BY "createdAt" DESC`,
          [to, template, `%${needle}%`],
        );
        found = rows[0];
        return rows.length;
      },
      { timeout: 30_000, message: `${template} email to ${to} about ${needle}` },
    )
    .toBeGreaterThan(0);
  return found!;
}
