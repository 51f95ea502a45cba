import { describe, expect, it } from "vitest";
import { z } from "zod";
import { ALL_SCOPES } from "@/lib/access/scopes";
import { defineOperation } from "../operation";
import { pageQuery } from "@/lib/pagination";
import { dateTime, pathId } from "@/lib/shared-schemas";
import { buildOpenApiDocument } from "./document";
import { API_OPERATIONS } from "./operations";

const urls = { apiUrl: "https://api.example", appUrl: "https://app.example" };

describe("buildOpenApiDocument", () => {
  const doc = buildOpenApiDocument(urls);

  it("is OpenAPI 3.1 at version 1.0.2 with every registered operation", () => {
    expect(doc.openapi).toBe("3.1.0");
    expect(doc.info.version).toBe("1.0.2");
    expect(doc.servers).toEqual([{ url: "https://api.example" }]);
    for (const op of API_OPERATIONS) expect(doc.paths[op.path]?.[op.method.toLowerCase()]?.operationId).toBe(op.operationId);
  });

  it("declares the OAuth2 authorization code scheme with the eight scopes", () => {
    expect(doc.components.securitySchemes["oauth2"]).toMatchObject({
      type: "oauth2",
      flows: { authorizationCode: { authorizationUrl: "https://app.example/oauth/authorize", tokenUrl: "https://api.example/oauth/token" } },
    });
    const flows = doc.components.securitySchemes["oauth2"]?.["flows"] as { authorizationCode: { scopes: Record<string, string> } };
    expect(Object.keys(flows.authorizationCode.scopes).sort()).toEqual([...ALL_SCOPES].sort());
  });

  it("documents /me with any token, the Me schema and the standard errors", () => {
    const me = doc.paths["/api/v1/me"]?.["get"];
    expect(me?.security).toEqual([{ oauth2: [] }]);
    expect(me?.responses["200"]).toMatchObject({ content: { "application/json": { schema: { $ref: "#/components/schemas/Me" } } } });
    expect(Object.keys(me?.responses ?? {}).sort()).toEqual(["200", "401", "403", "429", "500"]);
    expect(doc.components.schemas["Me"]?.["required"]).toContain("scopes");
    expect(doc.components.schemas["Error"]).toMatchObject({ required: ["error", "error_description"] });
    expect(doc.paths["/api/v1/openapi.json"]?.["get"]?.security).toEqual([]);
  });

  it("turns params, query, body and scope of a definition into parameters, requestBody and security", () => {
    const Thing = z.object({ id: z.string(), name: z.string(), created_at: dateTime }).meta({ id: "Thing" });
    const op = defineOperation({
      method: "POST",
      path: "/api/v1/things/{thingId}",
      operationId: "createThing",
      summary: "Create",
      tag: "Things",
      scope: "portal:write",
      params: z.object({ thingId: pathId("Thing") }),
      query: pageQuery,
      body: z.object({ name: z.string(), tags: z.array(z.string()).default([]) }),
      responses: { 201: Thing },
      errors: { 409: "The name is taken" },
    });
    const created = buildOpenApiDocument(urls, [op]).paths["/api/v1/things/{thingId}"]?.["post"];
    expect(created?.security).toEqual([{ oauth2: ["portal:write"] }]);
    expect(created?.parameters.map((p) => [p.name, p.in, p.required])).toEqual([
      ["thingId", "path", true],
      ["limit", "query", false],
      ["cursor", "query", false],
      ["Idempotency-Key", "header", false],
    ]);
    expect(created?.parameters[0]?.schema).toMatchObject({ type: "string", format: "uuid" });
    expect(created?.requestBody?.content["application/json"].schema).toMatchObject({ required: ["name"] });
    expect(created?.responses["409"]).toMatchObject({ description: "The name is taken" });
    expect(Object.keys(created?.responses ?? {}).sort()).toEqual(["201", "400", "401", "403", "404", "409", "413", "429", "500"]);
    const thing = buildOpenApiDocument(urls, [op]).components.schemas["Thing"];
    expect(thing?.["properties"]).toMatchObject({ created_at: { type: "string", format: "date-time" } });
  });
});
