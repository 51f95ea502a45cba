import { describe, expect, it, vi } from "vitest";
import { callRoute } from "@/test/routes/call-route";

// The document depends only on the operation definitions and the URLs: it is built once per
// process, and every GET serves the same bytes.

describe("GET /api/v1/openapi.json, built once per process", () => {
  it("two GETs return identical documents and the schemas are converted only for the first", async () => {
    vi.resetModules();
    const { SchemaComponents } = await import("@/lib/api/openapi/json-schema");
    const { GET } = await import("@/app/api/v1/openapi.json/route");
    const convert = vi.spyOn(SchemaComponents.prototype, "convert");

    const first = await callRoute(GET, { path: "/api/v1/openapi.json" });
    expect(first.status).toBe(200);
    const conversions = convert.mock.calls.length;
    expect(conversions).toBeGreaterThan(0);

    const second = await callRoute(GET, { path: "/api/v1/openapi.json" });
    expect(second.status).toBe(200);
    expect(second.text).toBe(first.text);
    expect(convert.mock.calls.length).toBe(conversions);
    convert.mockRestore();
  });
});
