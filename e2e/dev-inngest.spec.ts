import { expect, test } from "@playwright/test";
import { authorizeNewClient, callbackServer, saveScreenshot } from "./support";

// /dev/inngest on the e2e server (the local executor in dev mode, DEV_MAILBOX on): events made
// through the API (a task created, then completed) show up with the runs they started and their
// steps. notify-portal-users always plans in a step; the webhook fan-out and the partner plan are
// not started at all for the demo organization, which has neither webhooks nor the partner
// integration (the relay's routes).

const callback = callbackServer();

test("/dev/inngest lists the event an API call produced and the runs it started", async ({ page, request }) => {
  const { accessToken } = await authorizeNewClient(page, request, { name: "Jobs watcher", redirectUri: callback.uri, scopes: ["portal:read", "task:write"] });
  const headers = { Authorization: `Bearer ${accessToken}` };
  // A task in the portal without guests: the specs share the database, and others count portals.
  const portals = (await (await request.get("/api/v1/portals", { headers })).json()) as Array<{ id: string; name: string }>;
  const jordan = portals.find((p) => p.name.startsWith("Jordan Smith"))!;
  const created = await request.post(`/api/v1/portals/${jordan.id}/tasks`, { headers, data: { title: `Watched ${Date.now()}` } });
  expect(created.status()).toBe(201);
  const task = (await created.json()) as { task_id: string };
  const done = await request.post(`/api/v1/tasks/${task.task_id}/complete`, { headers, data: {} });
  expect(done.status(), await done.text()).toBe(200);

  const notifyRun = () =>
    page
      .getByTestId("run")
      .filter({ hasText: "notify-portal-users" })
      .filter({ hasText: /Completed/ })
      .first();
  await expect(async () => {
    await page.goto("/dev/inngest");
    await expect(page.getByTestId("events")).toContainText("task.created");
    await expect(page.getByTestId("events")).toContainText("task.completed");
    await expect(notifyRun()).toBeVisible();
  }).toPass({ timeout: 20_000 });
  await expect(page.getByRole("heading", { name: "Background jobs" })).toBeVisible();
  // Events routed to no webhook and no partner start neither consumer.
  await expect(page.getByTestId("run").filter({ hasText: /webhook-fan-out|partner-push-plan/ })).toHaveCount(0);
  // Every function the app serves (the SDK's introspection of /api/inngest in dev mode) was synced.
  const served = ((await (await request.get("/api/inngest")).json()) as { function_count: number }).function_count;
  expect(served).toBeGreaterThan(0);
  await expect(page.getByText(/functions synced/)).toContainText(`${served} functions synced`);
  await expect(notifyRun()).toContainText("plan");

  for (const [width, height] of [
    [1280, 800],
    [390, 844],
  ] as const) {
    await page.setViewportSize({ width, height });
    await saveScreenshot(page, `dev-inngest-${width}x${height}`, { fullPage: true });
  }
});
