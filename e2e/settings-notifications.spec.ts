import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import { authorizeNewClient, callbackServer, signIn } from "./support";

// "Turn off upload emails and receive none": the demo guest gets the email of an upload to Acme
// while uploads are on, and none for the next upload once they turned them off; the member, who
// kept theirs on, gets both (so the notification run did happen). The uploads go through the API
// (two-step upload), the notification through the e2e server's job executor.

test.describe.configure({ mode: "serial" });
// Several sign-ins and settings round trips on a slow machine.
test.setTimeout(180_000);
const callback = callbackServer();

async function setUploads(page: Page, mode: "Immediately" | "Off") {
  await page.context().clearCookies();
  await page.goto("/sign-in");
  await signIn(page, "guest@demo.test");
  await page.waitForURL((url) => !url.pathname.startsWith("/sign-in"));
  await page.goto("/account/notifications");
  await page.getByTestId("notify-uploads").getByLabel(mode).check();
  await page.getByRole("button", { name: "Save", exact: true }).click();
  await expect(page.getByRole("status")).toContainText("Saved.");
}

async function upload(request: APIRequestContext, token: string, portalId: string, filename: string) {
  const headers = { Authorization: `Bearer ${token}` };
  const body = "quarterly figures";
  const ticket = await request.post(`/api/v1/portals/${portalId}/files`, { headers, data: { filename, contentType: "text/plain", size: body.length } });
  expect(ticket.status()).toBe(200);
  const { file_id, upload_url, headers: putHeaders } = (await ticket.json()) as { file_id: string; upload_url: string; headers: Record<string, string> };
  const put = await request.put(upload_url, { headers: putHeaders, data: body });
  expect(put.ok()).toBe(true);
  expect((await request.post(`/api/v1/portals/${portalId}/files/complete`, { headers, data: { file_id, filename } })).status()).toBe(201);
}

/** Who was emailed about `filename` (the captured mailbox: a subject, then its "To ..." line). */
async function mailedAbout(page: Page, filename: string): Promise<string[]> {
  await page.goto("/dev/mailbox");
  const lines = (await page.locator("main").innerText()).split("\n").map((l) => l.trim());
  const to: string[] = [];
  lines.forEach((line, i) => {
    if (!line.includes(filename) || !line.startsWith("New file in")) return;
    const next = lines.slice(i + 1).find((l) => l.startsWith("To "));
    if (next) to.push(next.slice(3).split(" · ")[0]!);
  });
  return to.sort();
}

/** Once the member's copy exists (the notification run reached its recipients), and a moment more. */
/** Which of the demo member and demo guest were mailed about the file (other specs add guests to Acme too). */
async function recipientsOf(page: Page, filename: string): Promise<string[]> {
  await expect.poll(() => mailedAbout(page, filename), { timeout: 30_000 }).toContain("member@demo.test");
  await page.waitForTimeout(3000);
  return (await mailedAbout(page, filename)).filter((to) => to === "guest@demo.test" || to === "member@demo.test");
}

test("a guest who turns upload emails off receives none; with them on, they do", async ({ page, request }) => {
  await setUploads(page, "Immediately");
  await page.context().clearCookies();
  const { accessToken } = await authorizeNewClient(page, request, { name: "Upload bot", redirectUri: callback.uri, scopes: ["portal:read", "file:upload"] });
  const portals = (await (await request.get("/api/v1/portals", { headers: { Authorization: `Bearer ${accessToken}` } })).json()) as Array<{
    id: string;
    name: string;
  }>;
  const acme = portals.find((p) => p.name.includes("Acme Ltd"))!;

  const first = `loud-${Date.now()}.txt`;
  await upload(request, accessToken, acme.id, first);
  expect(await recipientsOf(page, first)).toEqual(["guest@demo.test", "member@demo.test"]);

  await setUploads(page, "Off");
  const second = `quiet-${Date.now()}.txt`;
  await upload(request, accessToken, acme.id, second);
  expect(await recipientsOf(page, second)).toEqual(["member@demo.test"]);

  // The demo's state back for the specs after this one.
  await setUploads(page, "Immediately");
});
