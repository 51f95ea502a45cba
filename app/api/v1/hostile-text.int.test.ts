import { describe, expect, it } from "vitest";
import { POST as revokePOST } from "@/app/oauth/revoke/route";
import { POST as tokenPOST } from "@/app/oauth/token/route";
import { POST as guestsPOST } from "@/app/api/v1/portals/[portalId]/guests/route";
import { db } from "@/lib/db";
import { checkAuthorizeRequest } from "@/lib/oauth/authorize";
import { portalApi } from "@/test/routes/portal-api";
import { tasksApi } from "@/test/routes/tasks-api";
import { createApiContext, createTestPortal } from "@/lib/test-support/fixtures";
import { callRoute } from "@/test/routes/call-route";

// D3: NUL characters and lone surrogates are a 400 naming the field, never a 500,
// and nothing is written. Raw JSON text is sent so that "\ud800" reaches the server as JSON does.

const NUL = "a\u0000b";
const problem = /Must not contain NUL characters or unpaired surrogates/;

describe("NUL and lone surrogates in /api/v1 requests", () => {
  it.each([
    ["name (NUL)", `{"name":"a\\u0000b"}`, /^name: /],
    ["name (lone surrogate)", `{"name":"\\ud800"}`, /^name: /],
    ["a tag", `{"name":"ok","tags":["x","a\\u0000b"]}`, /^tags\.1: /],
  ])("POST /portals with %s: 400 naming the field, nothing created", async (_, body, field) => {
    const ctx = await createApiContext();
    const res = await portalApi(ctx.token).create(body);
    expect(res.status).toBe(400);
    expect(res.json.error).toBe("invalid_request");
    expect(res.json.error_description).toMatch(field);
    expect(res.json.error_description).toMatch(problem);
    expect(await db.portal.count({ where: { orgId: ctx.org.id } })).toBe(0);
  });

  it("PATCH /portals/{id}: name, externalSystemIds key and value", async () => {
    const ctx = await createApiContext();
    const portal = await createTestPortal({ orgId: ctx.org.id, name: "Before" });
    const api = portalApi(ctx.token);
    for (const [body, field] of [
      [`{"name":"\\udc00x"}`, /^name: /],
      [`{"externalSystemIds":{"crm":"a\\u0000"}}`, /^externalSystemIds\.crm: /],
      [`{"externalSystemIds":{"c\\u0000rm":"1"}}`, /^externalSystemIds: a key must not contain/],
    ] as const) {
      const res = await api.patch(portal.id, body);
      expect([res.status, res.json.error]).toEqual([400, "invalid_request"]);
      expect(res.json.error_description).toMatch(field);
    }
    expect((await db.portal.findUniqueOrThrow({ where: { id: portal.id } })).name).toBe("Before");
  });

  it("GET /portals?externalSystem=%00&externalId=%00: 400 naming the query parameter", async () => {
    const ctx = await createApiContext();
    const res = await portalApi(ctx.token).list("?externalSystem=%00&externalId=%00");
    expect([res.status, res.json.error]).toEqual([400, "invalid_request"]);
    expect(res.json.error_description).toMatch(/^externalSystem: /);
  });

  it("tasks: title and description on POST and PATCH", async () => {
    const ctx = await createApiContext();
    const portal = await createTestPortal({ orgId: ctx.org.id });
    const api = tasksApi(ctx.token);
    const bad = await api.create(portal.id, `{"title":"${"a\\u0000b"}","actionType":"General"}`);
    expect([bad.status, bad.json.error]).toEqual([400, "invalid_request"]);
    expect(bad.json.error_description).toMatch(/^title: /);
    const created = await api.create(portal.id, { title: "Fine", actionType: "General" });
    expect(created.status).toBe(201);
    const patched = await api.update(created.json.task_id, `{"description":"\\ud800"}`);
    expect([patched.status, patched.json.error_description?.startsWith("description: ")]).toEqual([400, true]);
    expect(await db.task.count({ where: { orgId: ctx.org.id } })).toBe(1);
  });

  it("guests: a name with NUL", async () => {
    const ctx = await createApiContext();
    const portal = await createTestPortal({ orgId: ctx.org.id });
    const res = await callRoute(guestsPOST, {
      method: "POST",
      path: `/api/v1/portals/${portal.id}/guests`,
      token: ctx.token,
      body: `{"email":"g@example.com","name":"${"x\\u0000"}"}`,
      params: { portalId: portal.id },
    });
    expect([res.status, res.json["error"]]).toEqual([400, "invalid_request"]);
    expect(res.json["error_description"]).toMatch(/^name: /);
    expect(await db.portalGuest.count({ where: { portalId: portal.id } })).toBe(0);
  });
});

describe("NUL and lone surrogates at the OAuth endpoints", () => {
  const post = (handler: (req: Request) => Promise<Response>, path: string, body: string, headers: Record<string, string> = {}) =>
    handler(
      new Request(`http://localhost:3000${path}`, { method: "POST", body, headers: { "Content-Type": "application/x-www-form-urlencoded", ...headers } }),
    );

  it("/oauth/token with client_id=%00: 400 invalid_request naming the parameter", async () => {
    const res = await post(tokenPOST, "/oauth/token", "grant_type=client_credentials&client_id=%00&client_secret=x");
    expect(res.status).toBe(400);
    const json = (await res.json()) as { error: string; error_description: string };
    expect(json.error).toBe("invalid_request");
    expect(json.error_description).toMatch(/^Parameter client_id: /);
  });

  it.each([
    ["/oauth/token", tokenPOST, "grant_type=refresh_token&refresh_token=x"],
    ["/oauth/revoke", revokePOST, "token=x"],
  ])("%s with Authorization: Basic ADoA (NUL:NUL): 400 naming the header", async (path, handler, body) => {
    const res = await post(handler, path, body, { Authorization: "Basic ADoA" });
    expect(res.status).toBe(400);
    const json = (await res.json()) as { error: string; error_description: string };
    expect(json.error).toBe("invalid_request");
    expect(json.error_description).toMatch(/^Authorization: /);
  });

  it("the authorize check (behind /oauth/authorize and the consent and error pages; the route needs Auth.js, so e2e covers it) refuses NUL and lone surrogates in any parameter", async () => {
    expect(await checkAuthorizeRequest({ client_id: NUL })).toEqual({ kind: "error_page", message: "The request's client_id is not valid text." });
    expect(await checkAuthorizeRequest({ client_id: "cpc_x", redirect_uri: "\ud800" })).toMatchObject({ kind: "error_page" });
  });
});
