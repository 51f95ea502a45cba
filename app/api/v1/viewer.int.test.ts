import { describe, expect, it } from "vitest";
import { z } from "zod";
import { apiRoute, defineOperation, json } from "@/lib/api";
import { callRoute } from "@/test/routes/call-route";
import { db } from "@/lib/db";
import { createApiContext, createTestPortal } from "@/lib/test-support/fixtures";
import { GET as listPortals } from "./portals/route";
import { GET as listWebhooks } from "./webhooks/route";

// The viewer apiRoute hands to the domain: the token's user with the role they have now (read with
// the grant on every request) and the token's scopes. lib/access/access-matrix.int.test.ts covers
// the policy itself for every entry point.

// A route that answers with the viewer it was handed.
const whoAmI = apiRoute(
  defineOperation({
    method: "GET",
    path: "/api/v1/viewer-test",
    operationId: "viewerTest",
    summary: "test",
    tag: "Test",
    scope: null,
    responses: { 200: z.object({ role: z.string(), scopes: z.array(z.string()) }) },
  }),
  async ({ viewer }) => json({ role: viewer.role, scopes: [...(viewer.client?.scopes ?? [])] }),
);

describe("the API viewer", () => {
  it("carries the user's current role, read on every request, and the token's scopes", async () => {
    const ctx = await createApiContext();
    const first = await callRoute<{ role: string; scopes: string[] }>(whoAmI, { path: "/api/v1/viewer-test", token: ctx.token });
    expect(first.json.role).toBe("admin");
    expect(first.json.scopes.length).toBeGreaterThan(0);
    await db.membership.update({ where: { orgId_userId: { orgId: ctx.org.id, userId: ctx.user.id } }, data: { role: "member" } });
    const second = await callRoute<{ role: string }>(whoAmI, { path: "/api/v1/viewer-test", token: ctx.token });
    expect(second.json.role).toBe("member");
  });

  it("an admin demoted to member keeps portals and, through the API, webhooks (the scope decides)", async () => {
    const ctx = await createApiContext();
    const portal = await createTestPortal({ orgId: ctx.org.id });
    await db.membership.update({ where: { orgId_userId: { orgId: ctx.org.id, userId: ctx.user.id } }, data: { role: "member" } });
    expect((await callRoute(listWebhooks, { path: "/api/v1/webhooks", token: ctx.token })).status).toBe(200);
    const portals = await callRoute<{ id: string }[]>(listPortals, { path: "/api/v1/portals", token: ctx.token });
    expect(portals.status).toBe(200);
    expect(portals.json.map((p) => p.id)).toEqual([portal.id]);
  });

  it("a user taken out of the organization: 401 invalid_token, as before", async () => {
    const ctx = await createApiContext();
    await db.membership.delete({ where: { orgId_userId: { orgId: ctx.org.id, userId: ctx.user.id } } });
    const res = await callRoute(listPortals, { path: "/api/v1/portals", token: ctx.token });
    expect(res.status).toBe(401);
    expect(res.json).toMatchObject({ error: "invalid_token" });
  });
});
