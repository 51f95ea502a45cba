import { describe, expect, it } from "vitest";
import { createApiDispatcher, type RouteModule } from "./dispatch";

function table(module: RouteModule) {
  return createApiDispatcher(
    { routes: [{ path: "/api/v1/portals/[portalId]/tasks", module }], fallback: {} },
    {
      readDeployment: () => ({ https: true, development: false, connectOrigins: [] }),
    },
  );
}

describe("createApiDispatcher", () => {
  it("calls the route's handler with its decoded parameters and adds the data routes' security headers", async () => {
    let seen: { url: string; params: Record<string, string> } | undefined;
    const dispatcher = table({
      POST: async (req: Request, ctx: { params: Promise<Record<string, string>> }) => {
        seen = { url: req.url, params: await ctx.params };
        return new Response("{}", { status: 201, headers: { "Content-Type": "application/json" } });
      },
    });
    const handler = dispatcher.find("POST", "/api/v1/portals/a%20b/tasks");
    expect(handler).not.toBeNull();
    const response = await handler!(new Request("http://localhost/api/v1/portals/a%20b/tasks?x=1", { method: "POST", body: "{}" }));
    expect(seen).toEqual({ url: "http://localhost/api/v1/portals/a%20b/tasks?x=1", params: { portalId: "a b" } });
    expect(response.status).toBe(201);
    expect(response.headers.get("Content-Security-Policy")).toBe("default-src 'none'; frame-ancestors 'none'");
    expect(response.headers.get("X-Content-Type-Options")).toBe("nosniff");
    expect(response.headers.get("X-Frame-Options")).toBe("DENY");
    expect(response.headers.get("Strict-Transport-Security")).toBe("max-age=63072000");
  });

  it("finds nothing for a method the route does not export, another path or a segment that is not valid text", () => {
    const dispatcher = table({ POST: async () => new Response(null) });
    expect(dispatcher.find("GET", "/api/v1/portals/p/tasks")).toBeNull();
    expect(dispatcher.find("POST", "/api/v1/portals/p/tasks/x")).toBeNull();
    expect(dispatcher.find("POST", "/api/v1/portals//tasks")).toBeNull();
    expect(dispatcher.find("POST", "/api/v1/portals/%FF/tasks")).toBeNull();
  });

  it("refuses a table whose route exports no handler or uses a segment kind it cannot match", () => {
    expect(() => table({ dynamic: "force-dynamic" })).toThrow(/exports no method handler/);
    expect(() => createApiDispatcher({ routes: [{ path: "/api/v1/[...rest]", module: { GET: async () => new Response(null) } }], fallback: {} })).toThrow(
      /only \[name\]/,
    );
  });
});
