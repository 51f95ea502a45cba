import { env } from "@/lib/env";
import { SCOPES } from "@/lib/access/scopes";
import type { Operation } from "../operation";
import { MAX_KEY_LENGTH } from "../idempotency";
import { API_VERSION } from "../response";
import { ErrorSchema } from "../schemas";
import { SchemaComponents, type JsonSchema } from "./json-schema";
import { API_OPERATIONS } from "./operations";
import { ERROR_RESPONSES, HEADERS, successHeaders } from "./responses";
import type { OpenApiDocument, OpenApiOperation, OpenApiParameter, OpenApiResponse } from "./types";

// The OpenAPI 3.1 document, generated from the operation definitions (operations.ts) and their zod
// schemas: the same objects that parse requests and check responses.

export interface DocumentUrls {
  apiUrl: string;
  appUrl: string;
}

let served: { key: string; document: OpenApiDocument } | undefined;

/**
 * The document GET /api/v1/openapi.json serves: built once per process (it depends only on the
 * operation definitions and the URLs, which do not change while the process runs), so every GET
 * returns the same bytes without rebuilding the schemas. Rebuilt if the URLs differ (tests).
 */
export function servedOpenApiDocument(): OpenApiDocument {
  const urls: DocumentUrls = { apiUrl: env().API_URL, appUrl: env().APP_URL };
  const key = `${urls.apiUrl} ${urls.appUrl}`;
  if (served?.key !== key) served = { key, document: buildOpenApiDocument(urls) };
  return served.document;
}

export function buildOpenApiDocument(
  urls: DocumentUrls = { apiUrl: env().API_URL, appUrl: env().APP_URL },
  operations: readonly Operation[] = API_OPERATIONS,
): OpenApiDocument {
  const components = new SchemaComponents();
  components.convert(ErrorSchema, "output");
  const paths: OpenApiDocument["paths"] = {};
  for (const op of operations) {
    (paths[op.path] ??= {})[op.method.toLowerCase()] = operationObject(op, components);
  }
  const tokenUrl = `${urls.apiUrl}/oauth/token`;
  return {
    openapi: "3.1.0",
    info: {
      title: "Client Portals API",
      version: API_VERSION,
      description: [
        "Client portals, their files (metadata only), tasks, guests and webhook subscriptions.",
        "Every request needs `Authorization: Bearer <access token>` (OAuth 2.0 authorization code flow).",
        "Errors are `{error, error_description}`. Limits: 10,000 requests per OAuth client per UTC day (`X-RateLimit-*` headers).",
        `POST accepts \`Idempotency-Key\` (at most ${MAX_KEY_LENGTH} characters, kept 24 hours).`,
        'Lists are JSON arrays ordered by creation; `limit` (1-1000) and `cursor`, with `Link: <...>; rel="next"` when more items exist.',
      ].join("\n\n"),
    },
    servers: [{ url: urls.apiUrl }],
    security: [{ oauth2: [] }],
    tags: [...new Set(operations.map((op) => op.tag))].map((name) => ({ name })),
    paths,
    components: {
      schemas: components.schemas,
      securitySchemes: {
        oauth2: {
          type: "oauth2",
          description: "Authorization code flow; the user may grant fewer scopes than requested (see GET /api/v1/me).",
          flows: {
            authorizationCode: { authorizationUrl: `${urls.appUrl}/oauth/authorize`, tokenUrl, refreshUrl: tokenUrl, scopes: { ...SCOPES } },
          },
        },
      },
      responses: ERROR_RESPONSES,
      headers: HEADERS,
    },
  };
}

function operationObject(op: Operation, components: SchemaComponents): OpenApiOperation {
  const parameters: OpenApiParameter[] = [...parametersOf(op.params, "path", components), ...parametersOf(op.query, "query", components)];
  if (op.method === "POST") {
    parameters.push({
      name: "Idempotency-Key",
      in: "header",
      required: false,
      description: "Replays the stored response of an earlier request with the same key (24 hours); a different request with the same key is 409.",
      schema: { type: "string", minLength: 1, maxLength: MAX_KEY_LENGTH },
    });
  }
  const paginated = Boolean(op.query?.shape["cursor"]);
  const responses: Record<string, OpenApiResponse> = {};
  for (const [status, schema] of Object.entries(op.responses)) {
    responses[status] = {
      description: status === "201" ? "Created" : "OK",
      headers: successHeaders(op.scope !== "public", paginated),
      content: { "application/json": { schema: components.convert(schema, "output") } },
    };
  }
  for (const status of standardErrors(op)) responses[status] = { $ref: `#/components/responses/${status}` };
  for (const [status, description] of Object.entries(op.errors ?? {})) {
    responses[status] = { description, content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } } };
  }
  return {
    operationId: op.operationId,
    summary: op.summary,
    ...(op.description ? { description: op.description } : {}),
    tags: [op.tag],
    security: op.scope === "public" ? [] : [{ oauth2: op.scope === null ? [] : [op.scope] }],
    ...(op.scope === "public" ? {} : { "x-required-scope": op.scope }),
    parameters,
    ...(op.body ? { requestBody: { required: true, content: { "application/json": { schema: components.convert(op.body, "input") } } } } : {}),
    responses,
  };
}

/** Which of the wrapper's own errors an operation can return. */
function standardErrors(op: Operation): string[] {
  const authenticated = op.scope !== "public";
  const statuses: Array<[string, boolean]> = [
    ["400", Boolean(op.query || op.body) || op.method === "POST"],
    ["401", authenticated],
    ["403", authenticated],
    ["404", Boolean(op.params)],
    ["409", op.method === "POST" && authenticated],
    ["413", Boolean(op.body)],
    ["429", authenticated],
    ["500", true],
  ];
  return statuses.filter(([, applies]) => applies).map(([status]) => status);
}

function parametersOf(schema: Operation["query"], where: "path" | "query", components: SchemaComponents): OpenApiParameter[] {
  if (!schema) return [];
  const json = components.resolve(components.convert(schema, "input"));
  const properties = (json["properties"] ?? {}) as Record<string, JsonSchema>;
  const required = new Set((json["required"] ?? []) as string[]);
  return Object.entries(properties).map(([name, property]) => {
    const { description, ...rest } = property;
    return {
      name,
      in: where,
      required: where === "path" || required.has(name),
      ...(typeof description === "string" ? { description } : {}),
      schema: rest,
    };
  });
}
