import { afterEach, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { recordAudit } from "@/lib/audit/record-audit";
import { db } from "@/lib/db";
import { resetEnvForTests } from "@/lib/env";
import { AppError } from "@/lib/errors";
import { issueAccessToken } from "@/lib/oauth/access-token";
import { createApiContext } from "@/lib/test-support/fixtures";
import { GET as getMe } from "@/app/api/v1/me/route";
import { requestHash } from "@/lib/api/idempotency";
import { apiRoute, defineOperation, json } from "@/lib/api";
import { pathId } from "@/lib/shared-schemas";
import { callRoute } from "@/test/routes/call-route";
import { captureLog, restoreLogger } from "@/lib/test-support/log-capture";

// The wrapper, through real handlers built with it, against the real database.

const ThingSchema = z.object({ id: z.string(), name: z.string(), tags: z.array(z.string()) });

const getThing = apiRoute(
  defineOperation({
    method: "GET",
    path: "/api/v1/things/{thingId}",
    operationId: "getThing",
    summary: "test",
    tag: "Test",
    scope: "portal:read",
    params: z.object({ thingId: pathId("Thing") }),
    query: z.object({ verbose: z.enum(["yes", "no"]).optional() }),
    responses: { 200: ThingSchema },
  }),
  async ({ params }) => json({ id: params.thingId, name: "thing", tags: [], secretHash: "must not leak" }),
);

let slowMs = 0;
/** Creates an audit row per run, so tests can count how often the handler really ran. */
const createThing = apiRoute(
  defineOperation({
    method: "POST",
    path: "/api/v1/things",
    operationId: "createThing",
    summary: "test",
    tag: "Test",
    scope: "portal:write",
    body: z.object({ name: z.string(), tags: z.array(z.string()).default([]) }),
    responses: { 201: ThingSchema },
  }),
  async ({ auth, body }) => {
    if (slowMs) await new Promise((resolve) => setTimeout(resolve, slowMs));
    if (body.name === "taken") throw new AppError("conflict", "The name is taken");
    if (body.name === "crash") throw new Error("connection to 10.1.2.3 failed, password hunter2");
    await recordAudit(db, { orgId: auth.orgId, actor: auth.actor, action: "test.thing_created", targetType: "thing", metadata: { name: body.name } });
    return json({ id: crypto.randomUUID(), name: body.name, tags: body.tags }, 201);
  },
);

const brokenResponse = apiRoute(
  defineOperation({ method: "GET", path: "/api/v1/broken", operationId: "broken", summary: "test", tag: "Test", scope: null, responses: { 200: ThingSchema } }),
  // A handler that breaks its own contract: the wrapper must not send it.
  async () => json({ id: 1, name: null, tags: "x" } as unknown as z.input<typeof ThingSchema>),
);

const runs = (orgId: string) => db.auditLog.count({ where: { orgId, action: "test.thing_created" } });
const THING_ID = "7d444840-9dc0-4c2d-9b4a-4c8e0f0e6a11";
const savedEnv = { ...process.env };

afterEach(() => {
  process.env = { ...savedEnv };
  resetEnvForTests();
  slowMs = 0;
  vi.restoreAllMocks();
  restoreLogger();
});

function expectStandardHeaders(headers: Headers) {
  expect(headers.get("content-type")).toBe("application/json; charset=utf-8");
  expect(headers.get("x-api-version")).toBe("1.0.2");
  expect(headers.get("x-request-id")).toBeTruthy();
  expect(headers.get("cache-control")).toBe("no-store");
}

describe("authentication", () => {
  it("401 without a token, with a challenge carrying no error code", async () => {
    const res = await callRoute(getMe, { path: "/api/v1/me" });
    expect(res.status).toBe(401);
    expect(res.json).toMatchObject({ error: "invalid_token" });
    expect(res.headers.get("www-authenticate")).toBe('Bearer realm="client-portals"');
    expect(res.headers.get("x-ratelimit-limit")).toBeNull();
    expectStandardHeaders(res.headers);
  });

  it("401 for a garbage token, with error=invalid_token", async () => {
    const res = await callRoute(getMe, { path: "/api/v1/me", token: "not-a-jwt" });
    expect(res.status).toBe(401);
    expect(res.json).toMatchObject({ error: "invalid_token" });
    expect(res.headers.get("www-authenticate")).toMatch(/^Bearer error="invalid_token"/);
    expectStandardHeaders(res.headers);
  });

  it("401 once the grant is revoked", async () => {
    const ctx = await createApiContext();
    expect((await callRoute(getMe, { path: "/api/v1/me", token: ctx.token })).status).toBe(200);
    await db.oAuthGrant.update({ where: { id: ctx.grant.id }, data: { revokedAt: new Date() } });
    const res = await callRoute(getMe, { path: "/api/v1/me", token: ctx.token });
    expect(res.status).toBe(401);
    expect(res.json).toMatchObject({ error: "invalid_token" });
  });

  it("echoes a sane X-Request-Id", async () => {
    const res = await callRoute(getMe, { path: "/api/v1/me", headers: { "X-Request-Id": "trace-42" } });
    expect(res.headers.get("x-request-id")).toBe("trace-42");
  });
});

describe("organization gate and scopes", () => {
  it.each([
    ["API access switched off", { apiEnabled: false }],
    ["a business plan", { plan: "business" as const }],
  ])("403 api_access_disabled for %s, checked on every request", async (_, options) => {
    const ctx = await createApiContext(options);
    const res = await callRoute(getMe, { path: "/api/v1/me", token: ctx.token });
    expect(res.status).toBe(403);
    expect(res.json).toMatchObject({ error: "api_access_disabled" });
    expect(res.headers.get("x-ratelimit-limit")).toBe("10000");
    expectStandardHeaders(res.headers);
  });

  it("403 once an organization loses access after its token was issued", async () => {
    const ctx = await createApiContext();
    await db.organization.update({ where: { id: ctx.org.id }, data: { apiEnabled: false } });
    expect((await callRoute(getMe, { path: "/api/v1/me", token: ctx.token })).json).toMatchObject({ error: "api_access_disabled" });
  });

  it("403 insufficient_scope naming the scope needed", async () => {
    const ctx = await createApiContext({ scopes: ["task:read"] });
    const res = await callRoute(getThing, { path: `/api/v1/things/${THING_ID}`, token: ctx.token, params: { thingId: THING_ID } });
    expect(res.status).toBe(403);
    expect(res.json).toMatchObject({ error: "insufficient_scope" });
    expect(res.headers.get("www-authenticate")).toBe('Bearer error="insufficient_scope", scope="portal:read"');
  });

  it("passes with the scope, and drops fields the response schema does not declare", async () => {
    const ctx = await createApiContext({ scopes: ["portal:read"] });
    const res = await callRoute(getThing, { path: `/api/v1/things/${THING_ID}`, token: ctx.token, params: { thingId: THING_ID } });
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ id: THING_ID, name: "thing", tags: [] });
    expectStandardHeaders(res.headers);
  });
});

describe("effective scopes: the token's claim, the grant and the client's allowed scopes", () => {
  const readThing = (token: string) => callRoute(getThing, { path: `/api/v1/things/${THING_ID}`, token, params: { thingId: THING_ID } });

  it("refuses a scope the claim holds but the grant does not", async () => {
    const ctx = await createApiContext({ scopes: ["task:read"] });
    const { token } = await issueAccessToken({
      grantId: ctx.grant.id,
      userId: ctx.user.id,
      orgId: ctx.org.id,
      clientId: ctx.client.clientId,
      scopes: ["task:read", "portal:read"],
    });
    const res = await readThing(token);
    expect([res.status, res.json.error]).toEqual([403, "insufficient_scope"]);
    expect(res.headers.get("www-authenticate")).toBe('Bearer error="insufficient_scope", scope="portal:read"');
  });

  it("refuses a scope taken from the client's allowed scopes at once, for live tokens too, and grants it again when given back", async () => {
    const ctx = await createApiContext({ scopes: ["portal:read", "task:read"] });
    expect((await readThing(ctx.token)).status).toBe(200);
    await db.oAuthClient.update({ where: { id: ctx.client.id }, data: { allowedScopes: ["task:read"] } });
    const res = await readThing(ctx.token);
    expect([res.status, res.json.error]).toEqual([403, "insufficient_scope"]);
    await db.oAuthClient.update({ where: { id: ctx.client.id }, data: { allowedScopes: ["portal:read", "task:read"] } });
    expect((await readThing(ctx.token)).status).toBe(200);
  });

  it("refuses a scope the grant holds but the token's claim does not", async () => {
    const ctx = await createApiContext({ scopes: ["portal:read", "task:read"] });
    const { token } = await issueAccessToken({
      grantId: ctx.grant.id,
      userId: ctx.user.id,
      orgId: ctx.org.id,
      clientId: ctx.client.clientId,
      scopes: ["task:read"],
    });
    expect((await readThing(token)).status).toBe(403);
  });
});

describe("input", () => {
  it("404 not_found for a malformed path id (D4)", async () => {
    const ctx = await createApiContext();
    const res = await callRoute(getThing, { path: "/api/v1/things/123", token: ctx.token, params: { thingId: "123" } });
    expect(res.status).toBe(404);
    expect(res.json).toEqual({ error: "not_found", error_description: "Thing not found" });
  });

  it("400 naming a bad query parameter", async () => {
    const ctx = await createApiContext();
    const res = await callRoute(getThing, { path: `/api/v1/things/${THING_ID}?verbose=maybe`, token: ctx.token, params: { thingId: THING_ID } });
    expect(res.status).toBe(400);
    expect(res.json["error_description"]).toMatch(/^verbose: /);
  });

  it("400 Malformed JSON body", async () => {
    const ctx = await createApiContext();
    const res = await callRoute(createThing, { path: "/api/v1/things", token: ctx.token, body: '{"name": ' });
    expect(res.status).toBe(400);
    expect(res.json).toEqual({ error: "invalid_request", error_description: "Malformed JSON body" });
    expectStandardHeaders(res.headers);
  });

  it.each([
    [{}, "name: Required"],
    [{ name: 5 }, "name: Expected string, received number"],
    [{ name: "x", tags: ["a", 2] }, "tags.1: Expected string, received number"],
    [[1, 2], "Request body: Expected object, received array"],
  ])("400 naming the field for %j", async (body, description) => {
    const ctx = await createApiContext();
    const res = await callRoute(createThing, { path: "/api/v1/things", token: ctx.token, body });
    expect(res.status).toBe(400);
    expect(res.json).toEqual({ error: "invalid_request", error_description: description });
    expect(await runs(ctx.org.id)).toBe(0);
  });

  it("ignores unknown body fields", async () => {
    const ctx = await createApiContext();
    const res = await callRoute(createThing, { path: "/api/v1/things", token: ctx.token, body: { name: "a", colour: "red", org_id: "x" } });
    expect(res.status).toBe(201);
    expect(res.json).toMatchObject({ name: "a", tags: [] });
  });

  it("413 for a body over the limit, declared or only counted", async () => {
    process.env.API_MAX_BODY_BYTES = "100";
    resetEnvForTests();
    const ctx = await createApiContext();
    const big = JSON.stringify({ name: "x".repeat(200) });
    const counted = await callRoute(createThing, { path: "/api/v1/things", token: ctx.token, body: big });
    expect(counted.status).toBe(413);
    expect(counted.json).toMatchObject({ error: "payload_too_large" });
    const declared = await callRoute(createThing, { path: "/api/v1/things", token: ctx.token, body: "{}", headers: { "Content-Length": "5000000" } });
    expect(declared.status).toBe(413);
    expect(await runs(ctx.org.id)).toBe(0);
  });
});

describe("errors", () => {
  it("500 server_error hides the cause and logs it with the request id", async () => {
    const logged = captureLog();
    const ctx = await createApiContext();
    const res = await callRoute(createThing, { path: "/api/v1/things", token: ctx.token, body: { name: "crash" }, headers: { "X-Request-Id": "req-500" } });
    expect(res.status).toBe(500);
    expect(res.json).toEqual({ error: "server_error", error_description: "The server could not complete the request" });
    expect(res.text).not.toMatch(/hunter2|10\.1\.2\.3|at /);
    expectStandardHeaders(res.headers);
    expect(logged).toEqual([
      expect.objectContaining({
        level: "error",
        request_id: "req-500",
        method: "POST",
        path: "/api/v1/things",
        err: expect.objectContaining({ type: "Error" }),
      }),
    ]);
  });

  it("500 when a handler's response breaks its schema", async () => {
    captureLog();
    const ctx = await createApiContext();
    const res = await callRoute(brokenResponse, { path: "/api/v1/broken", token: ctx.token });
    expect(res.status).toBe(500);
    expect(res.json).toMatchObject({ error: "server_error" });
  });
});

describe("rate limit (D7)", () => {
  it("counts per client, sets the headers, and answers 429 past the limit", async () => {
    process.env.API_RATE_LIMIT_PER_DAY = "3";
    resetEnvForTests();
    const ctx = await createApiContext();
    const other = await createApiContext();
    const midnight = Math.floor(Date.now() / 86_400_000) * 86_400 + 86_400;

    for (const remaining of ["2", "1", "0"]) {
      const res = await callRoute(getMe, { path: "/api/v1/me", token: ctx.token });
      expect(res.status).toBe(200);
      expect(res.headers.get("x-ratelimit-limit")).toBe("3");
      expect(res.headers.get("x-ratelimit-remaining")).toBe(remaining);
      expect(res.headers.get("x-ratelimit-reset")).toBe(String(midnight));
    }
    const limited = await callRoute(getMe, { path: "/api/v1/me", token: ctx.token });
    expect(limited.status).toBe(429);
    expect(limited.json).toMatchObject({ error: "rate_limit_exceeded" });
    expect(limited.headers.get("x-ratelimit-remaining")).toBe("0");
    const retryAfter = Number(limited.headers.get("retry-after"));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(midnight - Math.floor(Date.now() / 1000) + 1);
    expectStandardHeaders(limited.headers);

    const otherClient = await callRoute(getMe, { path: "/api/v1/me", token: other.token });
    expect(otherClient.status).toBe(200);
    expect(otherClient.headers.get("x-ratelimit-remaining")).toBe("2");

    const row = await db.rateLimitCounter.findFirst({ where: { clientId: ctx.client.id } });
    expect(row?.count).toBe(4);
  });

  it("counts every authenticated request, a 403 included, but not a 401", async () => {
    const ctx = await createApiContext({ scopes: ["task:read"] });
    await callRoute(getThing, { path: `/api/v1/things/${THING_ID}`, token: ctx.token, params: { thingId: THING_ID } });
    await callRoute(getMe, { path: "/api/v1/me", token: `${ctx.token}x` });
    const row = await db.rateLimitCounter.findFirst({ where: { clientId: ctx.client.id } });
    expect(row?.count).toBe(1);
  });
});

describe("Idempotency-Key (D6)", () => {
  const post = (token: string, body: unknown, key?: string) =>
    callRoute(createThing, { path: "/api/v1/things", token, body, headers: key === undefined ? {} : { "Idempotency-Key": key } });

  it("replays the stored status and body without running the handler again", async () => {
    const ctx = await createApiContext();
    const first = await post(ctx.token, { name: "a" }, "key-1");
    const second = await post(ctx.token, { name: "a" }, "key-1");
    expect(first.status).toBe(201);
    expect(second.status).toBe(201);
    expect(second.text).toBe(first.text);
    expect(second.headers.get("idempotent-replayed")).toBe("true");
    expectStandardHeaders(second.headers);
    expect(await runs(ctx.org.id)).toBe(1);
  });

  it("409 for the same key with a different body, and runs nothing", async () => {
    const ctx = await createApiContext();
    await post(ctx.token, { name: "a" }, "key-2");
    const res = await post(ctx.token, { name: "b" }, "key-2");
    expect(res.status).toBe(409);
    expect(res.json).toMatchObject({ error: "conflict" });
    expect(await runs(ctx.org.id)).toBe(1);
  });

  it("keeps keys apart per client, and runs again without a key", async () => {
    const ctx = await createApiContext();
    const other = await createApiContext();
    await post(ctx.token, { name: "a" }, "shared");
    expect((await post(other.token, { name: "a" }, "shared")).headers.get("idempotent-replayed")).toBeNull();
    await post(ctx.token, { name: "a" });
    expect(await runs(ctx.org.id)).toBe(2);
  });

  it("400 for a key over 255 characters (255 is fine)", async () => {
    const ctx = await createApiContext();
    const res = await post(ctx.token, { name: "a" }, "k".repeat(256));
    expect(res.status).toBe(400);
    expect(res.json["error_description"]).toMatch(/^Idempotency-Key: /);
    expect((await post(ctx.token, { name: "a" }, "k".repeat(255))).status).toBe(201);
  });

  it("stores a 4xx outcome of the handler and replays it", async () => {
    const ctx = await createApiContext();
    const first = await post(ctx.token, { name: "taken" }, "key-409");
    const second = await post(ctx.token, { name: "taken" }, "key-409");
    expect(first.status).toBe(409);
    expect(second.status).toBe(409);
    expect(second.headers.get("idempotent-replayed")).toBe("true");
  });

  it("does not store a 500: the retry runs the handler again", async () => {
    captureLog();
    const ctx = await createApiContext();
    await post(ctx.token, { name: "crash" }, "key-500");
    expect(await db.idempotencyRecord.count({ where: { clientId: ctx.client.id, key: "key-500" } })).toBe(0);
    const retry = await post(ctx.token, { name: "crash" }, "key-500");
    expect(retry.headers.get("idempotent-replayed")).toBeNull();
  });

  it("409 while the first request with the key is still running, after waiting briefly", async () => {
    const ctx = await createApiContext();
    const hash = requestHash("POST", "/api/v1/things", JSON.stringify({ name: "a" }));
    // The first request, on another instance, claimed the key a moment ago and is still working.
    await db.idempotencyRecord.create({
      data: {
        clientId: ctx.client.id,
        key: "busy",
        method: "POST",
        path: "/api/v1/things",
        requestHash: hash,
        claimToken: `${crypto.randomUUID()}.${crypto.randomUUID()}`,
        claimedAt: new Date(),
        expiresAt: new Date(Date.now() + 60_000),
      },
    });
    const started = Date.now();
    const res = await post(ctx.token, { name: "a" }, "busy");
    expect(res.status).toBe(409);
    expect(res.json["error_description"]).toMatch(/still being processed/);
    expect(Date.now() - started).toBeGreaterThanOrEqual(4_500);
    expect(await runs(ctx.org.id)).toBe(0);
  });

  it("takes over a key whose request died (claimed on another instance, silent for minutes)", async () => {
    const ctx = await createApiContext();
    const hash = requestHash("POST", "/api/v1/things", JSON.stringify({ name: "a" }));
    await db.idempotencyRecord.create({
      data: {
        clientId: ctx.client.id,
        key: "dead",
        method: "POST",
        path: "/api/v1/things",
        requestHash: hash,
        claimToken: `${crypto.randomUUID()}.${crypto.randomUUID()}`,
        claimedAt: new Date(Date.now() - 10 * 60_000),
        createdAt: new Date(Date.now() - 10 * 60_000),
        expiresAt: new Date(Date.now() + 60_000),
      },
    });
    const res = await post(ctx.token, { name: "a" }, "dead");
    expect(res.status).toBe(201);
    expect(await runs(ctx.org.id)).toBe(1);
  });

  it("holds no transaction while the handler works before its first change; the change and the stored response commit together", async () => {
    const ctx = await createApiContext();
    slowMs = 1_500;
    const pending = post(ctx.token, { name: "a" }, "key-no-hold");
    await new Promise((resolve) => setTimeout(resolve, 700));
    // Mid-wait (where a one-step upload fetches its file_url): the key is claimed and committed,
    // and no connection of this database sits in an open transaction.
    const record = await db.idempotencyRecord.findFirstOrThrow({ where: { clientId: ctx.client.id, key: "key-no-hold" } });
    expect([record.completedAt, typeof record.claimToken]).toEqual([null, "string"]);
    const open = await db.$queryRaw<{ n: number }[]>`
      SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND state LIKE 'idle in transaction%'`;
    expect(open[0]?.n).toBe(0);
    const res = await pending;
    expect(res.status).toBe(201);
    const done = await db.idempotencyRecord.findFirstOrThrow({ where: { clientId: ctx.client.id, key: "key-no-hold" } });
    expect([done.statusCode, done.responseBody]).toEqual([201, res.text]);
    expect(await runs(ctx.org.id)).toBe(1);
  });

  it("a request whose claim was taken over meanwhile commits nothing and answers the other request's response", async () => {
    const ctx = await createApiContext();
    slowMs = 800;
    const pending = post(ctx.token, { name: "a" }, "key-taken");
    await new Promise((resolve) => setTimeout(resolve, 300));
    // A retry elsewhere took the claim over and finished first.
    const stored = JSON.stringify({ id: crypto.randomUUID(), name: "a", tags: [] });
    await db.idempotencyRecord.update({
      where: { clientId_key: { clientId: ctx.client.id, key: "key-taken" } },
      data: { claimToken: "elsewhere.1", statusCode: 201, responseBody: stored, completedAt: new Date() },
    });
    const res = await pending;
    expect([res.status, res.text, res.headers.get("idempotent-replayed")]).toEqual([201, stored, "true"]);
    // Its own write rolled back with its change's transaction.
    expect(await runs(ctx.org.id)).toBe(0);
  });

  it("runs concurrent duplicates once: the second waits and gets the same response", async () => {
    const ctx = await createApiContext();
    slowMs = 400;
    const [a, b] = await Promise.all([post(ctx.token, { name: "a" }, "key-race"), post(ctx.token, { name: "a" }, "key-race")]);
    expect([a.status, b.status]).toEqual([201, 201]);
    expect(a.text).toBe(b.text);
    expect([a.headers.get("idempotent-replayed"), b.headers.get("idempotent-replayed")].filter(Boolean)).toEqual(["true"]);
    expect(await runs(ctx.org.id)).toBe(1);
  });
});
