import { describe, expect, it } from "vitest";
import { callRoute } from "@/lib/api/test-support/call-route";
import { db } from "@/lib/db";
import { createApiContext, createTestPortal } from "@/lib/test-support/fixtures";
import { GET as listPortals } from "./portals/route";
import { GET as listWebhooks } from "./webhooks/route";

// The viewer apiRoute hands to the domain: the token's user with the role they have now (read with
// the grant on every request) and the token's scopes. lib/access/access-matrix.int.test.ts covers
// the policy itself for every entry point.

describe("the API viewer", () => {
  it("carries the user's current role: an admin demoted to member loses webhooks at once, keeps portals", async () => {
    const ctx = await createApiContext();
    const portal = await createTestPortal({ orgId: ctx.org.id });
    expect((await callRoute(listWebhooks, { path: "/api/v1/webhooks", token: ctx.token })).status).toBe(200);

    await db.membership.update({ where: { orgId_userId: { orgId: ctx.org.id, userId: ctx.user.id } }, data: { role: "member" } });
    const refused = await callRoute(listWebhooks, { path: "/api/v1/webhooks", token: ctx.token });
    expect(refused.status).toBe(403);
    expect(refused.json).toEqual({ error: "forbidden", error_description: "This needs the admin role" });
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
