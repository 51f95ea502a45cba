import { describe, expect, it } from "vitest";
import { allowedMethods, methodNotAllowed } from "./unknown-path";

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
