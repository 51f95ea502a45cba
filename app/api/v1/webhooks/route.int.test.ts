import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { callRoute } from "@/test/routes/call-route";
import { decrypt } from "@/lib/crypto";
import { db } from "@/lib/db";
import { resetEnvForTests } from "@/lib/env";
import { createApiContext } from "@/lib/test-support/fixtures";
import { MAX_WEBHOOKS_PER_ORG } from "@/lib/webhooks/config";
import { bodyOf, receiversClosedAfterEach, verifySignature } from "@/lib/webhooks/test-support/webhook-receiver";
import { DELETE, PATCH } from "./[webhookId]/route";
import { POST as TEST } from "./[webhookId]/test/route";
import { GET, POST } from "./route";

// The webhook subscriptions API (spec section 4, D19), against loopback receivers
// (OUTBOUND_ALLOW_PRIVATE=true; the refusals without it are in lib/webhooks/outbound-refusal.int.test.ts).

const savedEnv = { ...process.env };
const receiver = receiversClosedAfterEach(afterEach);

beforeAll(() => {
  process.env.OUTBOUND_ALLOW_PRIVATE = "true";
  resetEnvForTests();
});
afterAll(() => {
  process.env = savedEnv;
  resetEnvForTests();
});

type Webhook = {
  webhook_id: string;
  org_id: string;
  url: string;
  events: string[];
  secret: string;
  enabled: boolean;
  success_count: number;
  failure_count: number;
  created_at: string;
};

async function create(token: string, body: unknown) {
  return callRoute<Webhook>(POST, { path: "/api/v1/webhooks", token, body });
}

async function createOk(token: string, url = "http://127.0.0.1:9/hook", events = ["guest.invited"]) {
  const res = await create(token, { url, events });
  expect(res.status).toBe(201);
  return res.json;
}

const patch = (token: string, webhookId: string, body: unknown) =>
  callRoute(PATCH, { method: "PATCH", path: `/api/v1/webhooks/${webhookId}`, token, body, params: { webhookId } });
const remove = (token: string, webhookId: string) =>
  callRoute(DELETE, { method: "DELETE", path: `/api/v1/webhooks/${webhookId}`, token, params: { webhookId } });
const test = (token: string, webhookId: string) =>
  callRoute(TEST, { method: "POST", path: `/api/v1/webhooks/${webhookId}/test`, token, params: { webhookId } });

describe("POST /api/v1/webhooks", () => {
  it("creates an enabled webhook and returns it with a new secret (201)", async () => {
    const ctx = await createApiContext({ scopes: ["webhook:manage"] });
    const res = await create(ctx.token, { url: "https://127.0.0.1:8443/in?x=1", events: ["task.completed", "portal.created", "task.completed"] });

    expect(res.status).toBe(201);
    expect(Object.keys(res.json).sort()).toEqual([
      "created_at",
      "enabled",
      "events",
      "failure_count",
      "org_id",
      "secret",
      "success_count",
      "url",
      "webhook_id",
    ]);
    expect(res.json).toMatchObject({
      org_id: ctx.org.id,
      url: "https://127.0.0.1:8443/in?x=1",
      events: ["portal.created", "task.completed"],
      enabled: true,
      success_count: 0,
      failure_count: 0,
    });
    expect(res.json.secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    expect(new Date(res.json.created_at).toISOString()).toBe(res.json.created_at);

    const row = await db.webhook.findUniqueOrThrow({ where: { id: res.json.webhook_id } });
    expect(row.secretEncrypted).not.toContain(res.json.secret);
    expect(decrypt(row.secretEncrypted)).toBe(res.json.secret);
    const audit = await db.auditLog.findFirst({ where: { orgId: ctx.org.id, action: "webhook.created" } });
    expect(audit).toMatchObject({ targetId: row.id, actorUserId: ctx.user.id, oauthClientId: ctx.client.id });
    expect(JSON.stringify(audit?.metadata)).not.toContain(res.json.secret);
  });

  it("gives every webhook its own secret", async () => {
    const ctx = await createApiContext();
    const a = await createOk(ctx.token);
    const b = await createOk(ctx.token);
    expect(a.secret).not.toBe(b.secret);
  });

  it.each([
    [{ events: ["guest.invited"] }, "url"],
    [{ url: "https://hooks.example.com/" }, "events"],
    [{ url: "https://hooks.example.com/", events: [] }, "events"],
    [{ url: "https://hooks.example.com/", events: ["portal.deleted"] }, "events.0"],
    [{ url: "https://hooks.example.com/", events: ["webhook.test"] }, "events.0"],
    [{ url: "https://hooks.example.com/", events: ["portal.unlinked"] }, "events.0"],
    [{ url: "https://hooks.example.com/", events: "guest.invited" }, "events"],
    [{ url: 42, events: ["guest.invited"] }, "url"],
    [{ url: "not a url", events: ["guest.invited"] }, "url"],
    [{ url: "ftp://hooks.example.com/", events: ["guest.invited"] }, "url"],
    [{ url: "https://user:pw@hooks.example.com/", events: ["guest.invited"] }, "url"],
  ])("refuses %j with 400 naming %s", async (body, field) => {
    const ctx = await createApiContext();
    const res = await create(ctx.token, body);
    expect(res.status).toBe(400);
    expect(res.json).toMatchObject({ error: "invalid_request" });
    expect((res.json as unknown as { error_description: string }).error_description).toContain(field);
    expect(await db.webhook.count({ where: { orgId: ctx.org.id } })).toBe(0);
  });

  it(`allows ${MAX_WEBHOOKS_PER_ORG} webhooks per organization (409 beyond)`, async () => {
    const ctx = await createApiContext();
    const other = await createApiContext();
    await db.webhook.createMany({
      data: Array.from({ length: MAX_WEBHOOKS_PER_ORG - 1 }, (_, i) => ({
        orgId: ctx.org.id,
        url: `https://h${i}.example.com/`,
        events: ["guest.invited"],
        secretEncrypted: "x",
      })),
    });
    await createOk(ctx.token);
    const res = await create(ctx.token, { url: "https://127.0.0.1/one-more", events: ["guest.invited"] });
    expect(res.status).toBe(409);
    expect(res.json).toMatchObject({ error: "conflict", error_description: expect.stringContaining("25") });
    expect(await db.webhook.count({ where: { orgId: ctx.org.id } })).toBe(MAX_WEBHOOKS_PER_ORG);
    await createOk(other.token);
  });

  it("needs the webhook:manage scope", async () => {
    const ctx = await createApiContext({ scopes: ["portal:read", "portal:write"] });
    const res = await create(ctx.token, { url: "https://hooks.example.com/", events: ["guest.invited"] });
    expect(res.status).toBe(403);
    expect(res.json).toMatchObject({ error: "insufficient_scope" });
    expect(res.headers.get("www-authenticate")).toContain('scope="webhook:manage"');
    const list = await callRoute(GET, { path: "/api/v1/webhooks", token: ctx.token });
    expect(list.status).toBe(403);
  });
});

describe("GET /api/v1/webhooks", () => {
  it("lists the organization's webhooks with secrets and counters, in creation order", async () => {
    const ctx = await createApiContext({ scopes: ["webhook:manage"] });
    const other = await createApiContext();
    const a = await createOk(ctx.token, "https://127.0.0.1/a", ["file.uploaded"]);
    const b = await createOk(ctx.token, "http://localhost:8080/b", ["guest.invited", "file.signed"]);
    await createOk(other.token);
    await db.webhook.update({ where: { id: b.webhook_id }, data: { successCount: 7, failureCount: 2 } });

    const res = await callRoute<Webhook[]>(GET, { path: "/api/v1/webhooks", token: ctx.token });

    expect(res.status).toBe(200);
    expect(res.json).toEqual([a, { ...b, events: ["file.signed", "guest.invited"], success_count: 7, failure_count: 2 }]);
  });

  it("pages with limit and a Link header", async () => {
    const ctx = await createApiContext();
    const ids = [(await createOk(ctx.token)).webhook_id, (await createOk(ctx.token)).webhook_id, (await createOk(ctx.token)).webhook_id];
    const first = await callRoute<Webhook[]>(GET, { path: "/api/v1/webhooks?limit=2", token: ctx.token });
    expect(first.json.map((w) => w.webhook_id)).toEqual(ids.slice(0, 2));
    const next = /<([^>]+)>; rel="next"/.exec(first.headers.get("link") ?? "")?.[1];
    expect(next).toBeDefined();
    const url = new URL(next!);
    const second = await callRoute<Webhook[]>(GET, { path: url.pathname + url.search, token: ctx.token });
    expect(second.json.map((w) => w.webhook_id)).toEqual(ids.slice(2));
    expect(second.headers.get("link")).toBeNull();
  });
});

describe("PATCH /api/v1/webhooks/{webhookId}", () => {
  it("changes only what is sent and answers {success, webhook_id}", async () => {
    const ctx = await createApiContext();
    const hook = await createOk(ctx.token, "https://127.0.0.1/a", ["file.uploaded"]);

    let res = await patch(ctx.token, hook.webhook_id, { enabled: false });
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ success: true, webhook_id: hook.webhook_id });
    res = await patch(ctx.token, hook.webhook_id, { events: ["task.created", "file.uploaded"], url: "https://[::1]:8443/x" });
    expect(res.status).toBe(200);

    const [listed] = (await callRoute<Webhook[]>(GET, { path: "/api/v1/webhooks", token: ctx.token })).json;
    expect(listed).toEqual({ ...hook, url: "https://[::1]:8443/x", events: ["file.uploaded", "task.created"], enabled: false });
    expect(await db.auditLog.count({ where: { orgId: ctx.org.id, action: "webhook.updated", targetId: hook.webhook_id } })).toBe(2);
  });

  it.each([[{}], [{ name: "x" }], [{ events: [] }], [{ enabled: "no" }], [{ events: ["nope"] }]])("refuses %j with 400", async (body) => {
    const ctx = await createApiContext();
    const hook = await createOk(ctx.token);
    const res = await patch(ctx.token, hook.webhook_id, body);
    expect(res.status).toBe(400);
    expect(res.json).toMatchObject({ error: "invalid_request" });
  });

  it("is 404 for another organization's webhook and for a malformed id", async () => {
    const ctx = await createApiContext();
    const other = await createApiContext();
    const theirs = await createOk(other.token);
    expect((await patch(ctx.token, theirs.webhook_id, { enabled: false })).status).toBe(404);
    expect((await patch(ctx.token, "not-a-uuid", { enabled: false })).status).toBe(404);
    expect((await db.webhook.findUniqueOrThrow({ where: { id: theirs.webhook_id } })).enabled).toBe(true);
  });
});

describe("DELETE /api/v1/webhooks/{webhookId}", () => {
  it("deletes the webhook with its secret; a second delete is 404", async () => {
    const ctx = await createApiContext();
    const hook = await createOk(ctx.token);
    const res = await remove(ctx.token, hook.webhook_id);
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ success: true, webhook_id: hook.webhook_id });
    expect(await db.webhook.findUnique({ where: { id: hook.webhook_id } })).toBeNull();
    expect((await callRoute<Webhook[]>(GET, { path: "/api/v1/webhooks", token: ctx.token })).json).toEqual([]);
    expect((await remove(ctx.token, hook.webhook_id)).status).toBe(404);
    expect(await db.auditLog.count({ where: { orgId: ctx.org.id, action: "webhook.deleted", targetId: hook.webhook_id } })).toBe(1);
  });

  it("is 404 for another organization's webhook", async () => {
    const ctx = await createApiContext();
    const other = await createApiContext();
    const theirs = await createOk(other.token);
    expect((await remove(ctx.token, theirs.webhook_id)).status).toBe(404);
    expect(await db.webhook.findUnique({ where: { id: theirs.webhook_id } })).not.toBeNull();
  });
});

describe("POST /api/v1/webhooks/{webhookId}/test", () => {
  it("sends a signed webhook.test now and reports the answer", async () => {
    const ctx = await createApiContext();
    const r = await receiver();
    const hook = await createOk(ctx.token, r.url);

    const res = await test(ctx.token, hook.webhook_id);

    expect(res.status).toBe(200);
    expect(res.json).toEqual({ success: true, status_code: 200, delivery_id: expect.any(String), error: null });
    const deliveryId = res.json["delivery_id"] as string;
    expect(r.requests).toHaveLength(1);
    const [received] = r.requests;
    expect(received?.headers["x-webhook-event"]).toBe("webhook.test");
    expect(received?.headers["x-webhook-delivery-id"]).toBe(deliveryId);
    expect(verifySignature(hook.secret, received!)).toBe(true);
    expect(bodyOf(received!)).toEqual({
      event: "webhook.test",
      event_id: deliveryId,
      org_id: ctx.org.id,
      portal_id: null,
      portal_name: null,
      external_system_ids: {},
      timestamp: expect.any(String),
      occurred_at: expect.any(String),
      webhook_id: hook.webhook_id,
    });

    const delivery = await db.webhookDelivery.findUniqueOrThrow({ where: { id: deliveryId }, include: { attempts: true } });
    expect(delivery).toMatchObject({ webhookId: hook.webhook_id, eventId: null, eventType: "webhook.test", status: "succeeded", attemptCount: 1 });
    expect(delivery.attempts).toEqual([expect.objectContaining({ number: 1, statusCode: 200, success: true })]);
    // Test sends are diagnostics, not deliveries of events: the counters stay.
    const row = await db.webhook.findUniqueOrThrow({ where: { id: hook.webhook_id } });
    expect([row.successCount, row.failureCount]).toEqual([0, 0]);
  });

  it("reports the receiver's error status", async () => {
    const ctx = await createApiContext();
    const r = await receiver();
    r.setFallback(503);
    const hook = await createOk(ctx.token, r.url);
    const res = await test(ctx.token, hook.webhook_id);
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ success: false, status_code: 503, error: "HTTP 503" });
    expect(r.requests).toHaveLength(1);
  });

  it("reports a receiver that cannot be reached with status_code null and the reason", async () => {
    const ctx = await createApiContext();
    const r = await receiver();
    const url = r.url;
    await r.close();
    const hook = await createOk(ctx.token, url);
    const res = await test(ctx.token, hook.webhook_id);
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ success: false, status_code: null, error: expect.stringMatching(/^connection_failed/) });
  });

  it("does not follow a redirect", async () => {
    const ctx = await createApiContext();
    const [r, target] = [await receiver(), await receiver()];
    r.setFallback({ redirect: target.url, status: 307 });
    const hook = await createOk(ctx.token, r.url);
    const res = await test(ctx.token, hook.webhook_id);
    expect(res.json).toMatchObject({ success: false, status_code: 307 });
    expect(target.connections).toBe(0);
  });

  it("also reaches a disabled webhook (a check before enabling it again)", async () => {
    const ctx = await createApiContext();
    const r = await receiver();
    const hook = await createOk(ctx.token, r.url);
    await patch(ctx.token, hook.webhook_id, { enabled: false });
    expect((await test(ctx.token, hook.webhook_id)).json).toMatchObject({ success: true });
  });

  it("is 404 for another organization's webhook, and sends nothing", async () => {
    const ctx = await createApiContext();
    const other = await createApiContext();
    const r = await receiver();
    const theirs = await createOk(other.token, r.url);
    expect((await test(ctx.token, theirs.webhook_id)).status).toBe(404);
    expect(r.connections).toBe(0);
  });
});
