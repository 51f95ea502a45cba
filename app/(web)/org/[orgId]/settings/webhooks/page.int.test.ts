import { createElement, type ReactNode } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { db } from "@/lib/db";
import { resetEnvForTests } from "@/lib/env";
import { createTestUser } from "@/lib/test-support/fixtures";
import { addWebhook, createWebhookContext, type WebhookContext } from "@/inngest/functions/test-support/webhook-fixtures";
import { startWebhookReceiver, type WebhookReceiver } from "@/lib/webhooks/test-support/webhook-receiver";
import { createWebhookAction, deleteWebhookAction, testWebhookAction, updateWebhookAction } from "./actions";
import WebhookDeliveriesPage from "./[webhookId]/page";
import WebhooksPage from "./page";

// The webhook settings pages and actions against the database, rendered to HTML. The session is
// the one thing stood in for (Auth.js needs a request); revalidatePath needs Next's request store.

const session = vi.hoisted(() => ({ user: { id: "", email: "admin@example.com", name: "Admin" } }));
vi.mock("@/lib/auth/session", () => ({
  currentUser: async () => session.user,
  requireUser: async () => session.user,
}));
vi.mock("next/cache", () => ({ revalidatePath: () => undefined }));

const savedEnv = { ...process.env };
let r: WebhookReceiver;
let ctx: WebhookContext;

beforeAll(async () => {
  process.env.OUTBOUND_ALLOW_PRIVATE = "true";
  resetEnvForTests();
  r = await startWebhookReceiver();
});
beforeEach(async () => {
  ctx = await createWebhookContext();
  session.user.id = ctx.user.id;
});
afterEach(() => {
  r.requests.length = 0;
});
afterAll(async () => {
  await r.close();
  process.env = savedEnv;
  resetEnvForTests();
});

async function render(page: Promise<ReactNode>) {
  return renderToStaticMarkup(createElement("div", null, await page));
}

function form(fields: Record<string, string | string[]>) {
  const data = new FormData();
  for (const [name, value] of Object.entries(fields)) for (const v of [value].flat()) data.append(name, v);
  return data;
}

describe("/org/[orgId]/settings/webhooks", () => {
  it("lists the organization's webhooks with events, state, counters, secret and actions", async () => {
    const hook = await addWebhook(ctx, r.url, ["task.created", "guest.invited"]);
    await db.webhook.update({ where: { id: hook.webhook_id }, data: { successCount: 3, failureCount: 1 } });
    const html = await render(WebhooksPage({ params: Promise.resolve({ orgId: ctx.org.id }) }));
    expect(html).toContain(r.url);
    expect(html).toContain("task.created guest.invited");
    expect(html).toContain("Enabled");
    expect(html).toContain("3 succeeded, 1 failed");
    expect(html).toContain(hook.secret);
    expect(html).toContain("Send test");
    expect(html).toContain(`/org/${ctx.org.id}/settings/webhooks/${hook.webhook_id}`);
    expect(html).toContain("Add webhook");
  });

  it("tells members that only administrators manage webhooks", async () => {
    const member = await createTestUser({ orgId: ctx.org.id, role: "member" });
    session.user.id = member.id;
    await addWebhook(ctx, r.url);
    const html = await render(WebhooksPage({ params: Promise.resolve({ orgId: ctx.org.id }) }));
    expect(html).toContain("Only administrators");
    expect(html).not.toContain(r.url);
    await expect(createWebhookAction(ctx.org.id, {}, form({ url: r.url, events: ["guest.invited"] }))).resolves.toMatchObject({
      error: expect.stringContaining("admin"),
    });
  });

  it("creates, edits, tests and deletes through the actions", async () => {
    const orgId = ctx.org.id;
    const refused = await createWebhookAction(orgId, {}, form({ url: r.url }));
    // The domain's error names its field: the form shows it at the events, not rewritten by the page.
    expect(refused).toEqual({ fieldErrors: { events: "must name at least one event" }, values: { url: r.url, events: [], enabled: false } });
    const badUrl = await createWebhookAction(orgId, {}, form({ url: "ftp://example.com/hook", events: ["guest.invited"] }));
    expect(badUrl.fieldErrors?.url).toBeTruthy();
    expect(badUrl.values?.url).toBe("ftp://example.com/hook");
    expect(await db.webhook.count({ where: { orgId } })).toBe(0);

    expect(await createWebhookAction(orgId, {}, form({ url: r.url, events: ["file.uploaded", "task.completed"] }))).toMatchObject({
      saved: expect.any(Number),
    });
    const [row] = await db.webhook.findMany({ where: { orgId } });
    expect(row).toMatchObject({ url: r.url, events: ["file.uploaded", "task.completed"], enabled: true });

    expect(await updateWebhookAction(orgId, {}, form({ id: row!.id, url: r.url, events: ["guest.invited"] }))).toMatchObject({ saved: expect.any(Number) });
    expect(await db.webhook.findUniqueOrThrow({ where: { id: row!.id } })).toMatchObject({ events: ["guest.invited"], enabled: false });

    const tested = await testWebhookAction(orgId, {}, form({ id: row!.id }));
    expect(tested.test).toMatchObject({ success: true, statusCode: 200, error: null });
    expect(r.requests).toHaveLength(1);

    expect(await deleteWebhookAction(orgId, {}, form({ id: row!.id }))).toMatchObject({ done: expect.any(Number) });
    expect(await db.webhook.count({ where: { orgId } })).toBe(0);
  });

  it("shows a webhook's deliveries with their attempts, and 404s another organization's", async () => {
    const hook = await addWebhook(ctx, r.url);
    r.reply(500);
    await testWebhookAction(ctx.org.id, {}, form({ id: hook.webhook_id }));
    const html = await render(WebhookDeliveriesPage({ params: Promise.resolve({ orgId: ctx.org.id, webhookId: hook.webhook_id }) }));
    expect(html).toContain("webhook.test");
    expect(html).toContain("failed");
    expect(html).toContain("HTTP 500");
    expect(html).toContain("answered 500");
    expect(html).toContain("Redeliver");

    const other = await createWebhookContext();
    const theirs = await addWebhook(other, r.url);
    await expect(render(WebhookDeliveriesPage({ params: Promise.resolve({ orgId: ctx.org.id, webhookId: theirs.webhook_id }) }))).rejects.toThrow(
      /NEXT_HTTP_ERROR_FALLBACK;404/,
    );
  });
});
