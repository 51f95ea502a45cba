import { describe, expect, it } from "vitest";
import { callRoute } from "@/test/routes/call-route";
import { createApiContext } from "@/lib/test-support/fixtures";
import { GET } from "./route";

describe("GET /api/v1/me", () => {
  it("returns the user, organization, public client id and exactly the granted scopes", async () => {
    const ctx = await createApiContext({ scopes: ["task:read", "portal:read"] });
    const res = await callRoute(GET, { path: "/api/v1/me", token: ctx.token });
    expect(res.status).toBe(200);
    expect(res.json).toEqual({
      user_id: ctx.user.id,
      user_name: ctx.user.name,
      user_email: ctx.user.email,
      org_id: ctx.org.id,
      org_name: ctx.org.name,
      client_id: ctx.client.clientId,
      scopes: ["portal:read", "task:read"],
    });
    expect(res.headers.get("x-api-version")).toBe("1.0.2");
    expect(res.headers.get("x-request-id")).toBeTruthy();
  });

  it("answers a token with every scope, and one whose user has no name", async () => {
    const ctx = await createApiContext();
    const { db } = await import("@/lib/db");
    await db.user.update({ where: { id: ctx.user.id }, data: { name: null } });
    const res = await callRoute(GET, { path: "/api/v1/me", token: ctx.token });
    expect(res.json["user_name"]).toBeNull();
    expect(res.json["scopes"]).toHaveLength(8);
  });
});
