import { readdirSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { API_OPERATIONS } from "@/lib/api/openapi/operations";
import { createApiDispatcher } from "@/lib/api/dispatch";
import { API_ROUTE_TABLE } from "./route-table";

// The production server serves the API from this table (server/index.ts): a route file missing
// from it would still work (through Next.js) but slowly; one listed under the wrong path would
// answer the wrong requests. Both are caught here.

const appDir = path.join(import.meta.dirname, "..");

function routeFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return routeFiles(full);
    return name === "route.ts" ? [full] : [];
  });
}

const routePath = (file: string) => "/" + path.relative(appDir, path.dirname(file)).split(path.sep).join("/");

describe("the API route table", () => {
  it("lists every route file of /api/v1 (but the catch-all), the OAuth token and revocation endpoints and the job engine's endpoint, at their folders' paths", () => {
    const expected = [
      ...routeFiles(path.join(appDir, "api/v1"))
        .map(routePath)
        .filter((p) => !p.includes("[[...")),
      "/oauth/token",
      "/oauth/revoke",
      "/api/inngest",
    ].sort();
    expect(API_ROUTE_TABLE.routes.map((r) => r.path).sort()).toEqual(expected);
  });

  it("serves every operation of the API at its path and method", () => {
    const dispatcher = createApiDispatcher(API_ROUTE_TABLE);
    for (const op of API_OPERATIONS) {
      const concrete = op.path.replace(/\{[^}]+\}/g, "00000000-0000-4000-8000-000000000000");
      expect(dispatcher.claims(concrete), op.path).toBe(true);
      expect(dispatcher.find(op.method, concrete), `${op.method} ${op.path}`).not.toBeNull();
    }
  });

  it("leaves to Next.js what it does not serve: unknown paths, trailing slashes, unexported methods, HEAD and OPTIONS, undecodable ids", () => {
    const dispatcher = createApiDispatcher(API_ROUTE_TABLE);
    expect(dispatcher.find("GET", "/api/v1/nothing-here")).toBeNull();
    expect(dispatcher.find("GET", "/api/v1/portals/")).toBeNull();
    expect(dispatcher.find("DELETE", "/api/v1/portals")).toBeNull();
    expect(dispatcher.find("HEAD", "/api/v1/portals")).toBeNull();
    expect(dispatcher.find("OPTIONS", "/api/v1/portals")).toBeNull();
    expect(dispatcher.find("GET", "/api/v1/portals/%E0%A4%A")).toBeNull();
    expect(dispatcher.find("GET", "/api/v1/portals/%ED%A0%80")).toBeNull();
    expect(dispatcher.find("GET", "/api/v1//tasks")).toBeNull();
    expect(dispatcher.claims("/docs/api")).toBe(false);
    expect(dispatcher.claims("/org/x")).toBe(false);
  });
});
