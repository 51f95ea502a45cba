import { readdirSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { GET as unknownPath, POST as unknownPathPost } from "@/app/api/v1/[[...path]]/route";
import { GET as openApiJson } from "@/app/api/v1/openapi.json/route";
import { callRoute } from "@/test/routes/call-route";
import type { OpenApiDocument } from "@/lib/api/openapi/types";
import { API_OPERATIONS } from "@/lib/api/openapi/operations";

// The document is generated from API_OPERATIONS, so every /api/v1 route must be built with
// apiRoute() from an operation listed there, at the path its file serves.

const API_DIR = path.resolve(import.meta.dirname, "..");
const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;

function routeFiles(): string[] {
  return readdirSync(API_DIR, { recursive: true, encoding: "utf8" })
    .filter((f) => path.basename(f) === "route.ts" && !f.startsWith("[[...path]]"))
    .sort();
}

/** `portals/[portalId]/route.ts` → `/api/v1/portals/{portalId}` */
const pathOf = (file: string) => `/api/v1/${path.dirname(file).split(path.sep).join("/")}`.replace(/\[(\w+)\]/g, "{$1}");

describe("operation registry", () => {
  it.each(routeFiles())("app/api/v1/%s: every handler is a registered operation of this path", async (file) => {
    const mod = (await import(path.join(API_DIR, file))) as Record<string, unknown>;
    const exported = METHODS.filter((m) => typeof mod[m] === "function");
    expect(exported.length).toBeGreaterThan(0);
    for (const method of exported) {
      const handler = mod[method] as { operation?: (typeof API_OPERATIONS)[number] };
      expect(handler.operation, `${method} must be built with apiRoute()`).toBeDefined();
      expect(API_OPERATIONS, `${method} ${file}: add its definition to lib/api/openapi/operations.ts`).toContain(handler.operation);
      expect(handler.operation?.method).toBe(method);
      expect(handler.operation?.path).toBe(pathOf(file));
    }
  });

  it("has unique operation ids and (method, path) pairs", () => {
    expect(new Set(API_OPERATIONS.map((o) => o.operationId)).size).toBe(API_OPERATIONS.length);
    expect(new Set(API_OPERATIONS.map((o) => `${o.method} ${o.path}`)).size).toBe(API_OPERATIONS.length);
  });
});

describe("GET /api/v1/openapi.json", () => {
  it("serves the OpenAPI 3.1 document without a token", async () => {
    const res = await callRoute<OpenApiDocument>(openApiJson, { path: "/api/v1/openapi.json" });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/json; charset=utf-8");
    expect(res.headers.get("x-api-version")).toBe("1.0.2");
    expect(res.headers.get("x-request-id")).toBeTruthy();
    expect(res.json.openapi).toBe("3.1.0");
    expect(res.json.info.version).toBe("1.0.2");
    expect(res.json.paths["/api/v1/me"]?.["get"]).toBeDefined();
    const oauth = res.json.components.securitySchemes["oauth2"] as {
      flows: { authorizationCode: { authorizationUrl: string; tokenUrl: string; scopes: object } };
    };
    expect(oauth.flows.authorizationCode.authorizationUrl).toMatch(/\/oauth\/authorize$/);
    expect(oauth.flows.authorizationCode.tokenUrl).toMatch(/\/oauth\/token$/);
    expect(Object.keys(oauth.flows.authorizationCode.scopes)).toHaveLength(8);
  });
});

describe("unknown /api/v1 paths", () => {
  it.each([
    ["GET", unknownPath],
    ["POST", unknownPathPost],
  ])("%s answers 404 not_found as JSON with the standard headers", async (method, handler) => {
    const res = await callRoute(handler, { method, path: "/api/v1/nothing/here", params: { path: ["nothing", "here"] } });
    expect(res.status).toBe(404);
    expect(res.json).toEqual({ error: "not_found", error_description: `No API endpoint at ${method} /api/v1/nothing/here` });
    expect(res.headers.get("content-type")).toBe("application/json; charset=utf-8");
    expect(res.headers.get("x-api-version")).toBe("1.0.2");
    expect(res.headers.get("x-request-id")).toBeTruthy();
  });
});
