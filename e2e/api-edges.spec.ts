import { expect, test, type APIRequestContext } from "@playwright/test";
import { authorizeNewClient, callbackServer } from "./support";

// The API's edges against the production server, where Next.js itself decides some answers
//: badly percent-encoded ids on every route with an id, 401 challenges,
// and the X-RateLimit-* headers on 404s and 405s with a valid token.

test.describe.configure({ mode: "serial" });

const callback = callbackServer();
let accessToken = "";

const BAD_IDS = ["%ff%fe", "%ED%A0%80"];

/** Every (method, path) of the OpenAPI document that has a path id, with the id replaced. */
async function routesWithIds(request: APIRequestContext): Promise<{ method: string; path: string }[]> {
  const doc = (await (await request.get("/api/v1/openapi.json")).json()) as { paths: Record<string, Record<string, unknown>> };
  const templates = Object.entries(doc.paths).filter(([path]) => path.includes("{"));
  expect(templates.length).toBeGreaterThan(5);
  return templates.flatMap(([path, methods]) =>
    Object.keys(methods).flatMap((method) => BAD_IDS.map((id) => ({ method: method.toUpperCase(), path: path.replace(/\{[^}]+\}/g, id) }))),
  );
}

async function expectJsonNotFound(request: APIRequestContext, method: string, path: string, token?: string) {
  const res = await request.fetch(path, { method, headers: token ? { Authorization: `Bearer ${token}` } : {}, data: method === "GET" ? undefined : {} });
  expect(res.status(), `${method} ${path}`).toBe(404);
  expect(res.headers()["content-type"]).toContain("application/json");
  expect(res.headers()["x-api-version"]).toBe("1.0.2");
  expect(await res.json()).toMatchObject({ error: "not_found" });
  return res;
}

test("badly percent-encoded ids answer a JSON 404 on every route with an id, without a token", async ({ request }) => {
  for (const { method, path } of await routesWithIds(request)) await expectJsonNotFound(request, method, path);
});

test("401 without credentials is a bare Bearer challenge; a bad token is invalid_token (RFC 6750)", async ({ request }) => {
  const none = await request.get("/api/v1/me");
  expect(none.status()).toBe(401);
  expect(none.headers()["www-authenticate"]).toBe('Bearer realm="client-portals"');
  const bad = await request.get("/api/v1/me", { headers: { Authorization: "Bearer not-a-token" } });
  expect(bad.status()).toBe(401);
  expect(bad.headers()["www-authenticate"]).toMatch(/^Bearer error="invalid_token"/);
  expect(bad.headers()["x-ratelimit-limit"]).toBeUndefined();
});

test("with a valid token: bad ids are JSON 404s, and 404s and 405s carry X-RateLimit-* and count", async ({ page, request }) => {
  ({ accessToken } = await authorizeNewClient(page, request, { name: "Edge Checker", redirectUri: callback.uri, scopes: ["portal:read"] }));
  const auth = { Authorization: `Bearer ${accessToken}` };
  const remaining = async () => Number((await request.get("/api/v1/me", { headers: auth })).headers()["x-ratelimit-remaining"]);

  for (const id of BAD_IDS) {
    const res = await expectJsonNotFound(request, "GET", `/api/v1/portals/${id}`, accessToken);
    expect(res.headers()["x-ratelimit-limit"]).toMatch(/^\d+$/);
  }

  const before = await remaining();
  const unknown = await request.get("/api/v1/no-such-endpoint", { headers: auth });
  expect(unknown.status()).toBe(404);
  const del = await request.delete(`/api/v1/portals/${crypto.randomUUID()}`, { headers: auth });
  expect(del.status()).toBe(405);
  expect(del.headers()["allow"]).toBe("GET, PATCH");
  expect(await del.json()).toMatchObject({ error: "method_not_allowed" });
  const put = await request.put("/api/v1/webhooks", { headers: auth, data: {} });
  expect(put.status()).toBe(405);
  for (const res of [unknown, del, put]) {
    expect(res.headers()["x-ratelimit-limit"]).toMatch(/^\d+$/);
    expect(res.headers()["x-ratelimit-reset"]).toMatch(/^\d+$/);
  }
  expect(Number(put.headers()["x-ratelimit-remaining"])).toBe(before - 3);
  expect(await remaining()).toBe(before - 4);
});
