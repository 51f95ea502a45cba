import { json, publicApiRoute } from "@/lib/api";
import { getOpenApiOperation } from "@/lib/api/openapi/definition";
import { servedOpenApiDocument } from "@/lib/api/openapi/document";

// GET /api/v1/openapi.json - the OpenAPI 3.1 document, public (no token, not rate limited)
export const GET = publicApiRoute(getOpenApiOperation, async () => json({ ...servedOpenApiDocument() }));
