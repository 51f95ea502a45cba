import type { JsonSchema } from "./json-schema";

// The parts of OpenAPI 3.1 this project generates (and /docs/api reads).

export interface OpenApiParameter {
  name: string;
  in: "path" | "query" | "header";
  required: boolean;
  description?: string;
  schema: JsonSchema;
}

export interface OpenApiHeader {
  description: string;
  schema: JsonSchema;
}

export type OpenApiResponse =
  | { $ref: string }
  | {
      description: string;
      headers?: Record<string, { $ref: string }>;
      content?: { "application/json": { schema: JsonSchema } };
    };

export interface OpenApiOperation {
  operationId: string;
  summary: string;
  description?: string;
  tags: string[];
  security: Array<Record<string, string[]>>;
  /** The scope needed, `null` for any token (absent on public operations), for readers that do not parse `security`. */
  "x-required-scope"?: string | null;
  parameters: OpenApiParameter[];
  requestBody?: { required: boolean; content: { "application/json": { schema: JsonSchema } } };
  responses: Record<string, OpenApiResponse>;
}

export interface OpenApiDocument {
  openapi: "3.1.0";
  info: { title: string; version: string; description: string };
  servers: Array<{ url: string }>;
  security: Array<Record<string, string[]>>;
  tags: Array<{ name: string }>;
  paths: Record<string, Record<string, OpenApiOperation>>;
  components: {
    schemas: Record<string, JsonSchema>;
    securitySchemes: Record<string, JsonSchema>;
    responses: Record<string, OpenApiResponse>;
    headers: Record<string, OpenApiHeader>;
  };
}
