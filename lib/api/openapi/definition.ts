import { z } from "zod";
import { defineOperation } from "../operation";

// GET /api/v1/openapi.json - this document (served by app/api/v1/openapi.json/route.ts).
export const getOpenApiOperation = defineOperation({
  method: "GET",
  path: "/api/v1/openapi.json",
  operationId: "getOpenApiDocument",
  summary: "This API's OpenAPI 3.1 document (no token needed)",
  tag: "Meta",
  scope: "public",
  responses: { 200: z.record(z.string(), z.unknown()).meta({ description: "OpenAPI 3.1 document" }) },
});
