import { describe, expect, it } from "vitest";
import { allowedMethods, fallbackOf, isDecodablePath } from "./api-paths";
import { methodNotAllowed } from "./unknown-path";

describe("methodNotAllowed", () => {
  it("knows the methods served at a path", () => {
    expect(allowedMethods("/api/v1/me")).toEqual(["GET"]);
    expect(allowedMethods("/api/v1/nothing-here")).toEqual([]);
  });

  it("answers an unserved method with a JSON 405 and Allow", async () => {
    const res = methodNotAllowed(new Request("http://localhost/api/v1/me", { method: "DELETE" }));
    expect(res?.status).toBe(405);
    expect(res?.headers.get("Allow")).toBe("GET");
    expect(res?.headers.get("Content-Type")).toContain("application/json");
    expect(res?.headers.get("X-API-Version")).toBe("1.0.2");
    expect(await res?.json()).toEqual({ error: "method_not_allowed", error_description: "DELETE is not allowed here; use GET" });
  });

  it("lets served methods, HEAD of a GET and unknown paths through", () => {
    expect(methodNotAllowed(new Request("http://localhost/api/v1/me"))).toBeNull();
    expect(methodNotAllowed(new Request("http://localhost/api/v1/me", { method: "HEAD" }))).toBeNull();
    expect(methodNotAllowed(new Request("http://localhost/api/v1/unknown", { method: "DELETE" }))).toBeNull();
  });
});

describe("fallbackOf (what proxy.ts rewrites to the catch-all route)", () => {
  it.each([
    "/api/v1/portals/%ff%fe",
    "/api/v1/portals/%ED%A0%80",
    "/api/v1/portals/%ED%A0%80/tasks",
    "/api/v1/tasks/%ff/complete",
    "/api/v1/nope/%e0%a4",
    "/api/v1/portals/%",
  ])("%s is not valid percent-encoded UTF-8: bad_path for every method", (path) => {
    expect(isDecodablePath(path)).toBe(false);
    for (const method of ["GET", "POST", "PATCH", "DELETE"]) expect(fallbackOf(method, path)).toBe("bad_path");
  });

  it("leaves good paths to their routes, and sends unserved methods to the 405", () => {
    expect(fallbackOf("GET", "/api/v1/portals/6f1c0a52-8f5e-4a52-9c64-3f1e3d1c2b10")).toBeNull();
    expect(fallbackOf("GET", "/api/v1/portals/%C3%A9t%C3%A9")).toBeNull();
    expect(fallbackOf("GET", "/api/v1/no-such-endpoint")).toBeNull();
    expect(fallbackOf("DELETE", "/api/v1/portals/6f1c0a52-8f5e-4a52-9c64-3f1e3d1c2b10")).toBe("method_not_allowed");
    expect(fallbackOf("PUT", "/api/v1/webhooks")).toBe("method_not_allowed");
  });
});
