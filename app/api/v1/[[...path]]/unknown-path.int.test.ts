import { describe, expect, it } from "vitest";
import { DELETE as fallbackDELETE, GET as fallbackGET, PUT as fallbackPUT } from "@/app/api/v1/[[...path]]/route";
import { db } from "@/lib/db";
import { createApiContext } from "@/lib/test-support/fixtures";
import { callRoute } from "@/test/routes/call-route";
import { fallbackPathname } from "@/lib/api/api-paths";

// The catch-all route behind proxy.ts: unknown paths, unserved methods and
// badly encoded ids answer JSON with the API headers; with a valid token they count (D7) and carry
// the X-RateLimit-* headers.

const counted = async (clientId: string) => (await db.rateLimitCounter.findFirst({ where: { clientId } }))?.count ?? 0;

describe("the catch-all route", () => {
  it("404 for an unknown path: with a valid token counted and with X-RateLimit-*; without one not", async () => {
    const ctx = await createApiContext();
    const withToken = await callRoute(fallbackGET, { path: "/api/v1/no-such-endpoint", token: ctx.token });
    expect([withToken.status, withToken.json["error"]]).toEqual([404, "not_found"]);
    expect(withToken.headers.get("x-ratelimit-limit")).toBe("10000");
    expect(withToken.headers.get("x-ratelimit-remaining")).toBe("9999");
    expect(withToken.headers.get("x-ratelimit-reset")).toMatch(/^\d+$/);
    expect(withToken.headers.get("x-api-version")).toBe("1.0.2");
    expect(await counted(ctx.client.id)).toBe(1);

    const anonymous = await callRoute(fallbackGET, { path: "/api/v1/no-such-endpoint" });
    const badToken = await callRoute(fallbackGET, { path: "/api/v1/no-such-endpoint", token: `${ctx.token}x` });
    for (const res of [anonymous, badToken]) {
      expect([res.status, res.json["error"]]).toEqual([404, "not_found"]);
      expect(res.headers.get("x-ratelimit-limit")).toBeNull();
    }
    expect(await counted(ctx.client.id)).toBe(1);
  });

  it("405 (as rewritten by proxy.ts) with Allow and X-RateLimit-* for a valid token", async () => {
    const ctx = await createApiContext();
    const portalPath = `/api/v1/portals/${crypto.randomUUID()}`;
    const del = await callRoute(fallbackDELETE, { method: "DELETE", path: fallbackPathname(portalPath), token: ctx.token });
    expect([del.status, del.json["error"]]).toEqual([405, "method_not_allowed"]);
    expect(del.headers.get("allow")).toBe("GET, PATCH");
    expect(del.headers.get("x-ratelimit-remaining")).toBe("9999");
    const put = await callRoute(fallbackPUT, { method: "PUT", path: fallbackPathname("/api/v1/webhooks"), token: ctx.token, body: {} });
    expect([put.status, put.headers.get("allow"), put.headers.get("x-ratelimit-remaining")]).toEqual([405, "GET, POST", "9998"]);
  });

  it.each(["/api/v1/portals/%ff%fe", "/api/v1/portals/%ED%A0%80", "/api/v1/tasks/%ff/complete"])(
    "404 not_found JSON for the badly encoded %s, with or without a token",
    async (raw) => {
      const ctx = await createApiContext();
      for (const token of [ctx.token, undefined]) {
        const res = await callRoute(fallbackGET, { path: fallbackPathname(raw), token });
        expect(res.status).toBe(404);
        expect(res.json).toEqual({ error: "not_found", error_description: "No API endpoint at GET this path" });
        expect(res.headers.get("content-type")).toContain("application/json");
        expect(res.headers.get("x-ratelimit-limit")).toBe(token ? "10000" : null);
      }
    },
  );
});
