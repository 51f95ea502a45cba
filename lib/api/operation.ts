import type { z } from "zod";
import type { Scope } from "@/lib/access/scopes";

// An operation of the API: method, path, scope and schemas, in one object. The route handler is
// built from it (apiRoute) and the OpenAPI document is generated from it (openapi/operations.ts
// lists every one), so what is parsed, what is returned and what is documented cannot drift apart.

type HttpMethod = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

export type ObjectSchema = z.ZodObject;

/** A scope; `null`: any valid token; `"public"`: no token at all. */
export type OperationScope = Scope | null | "public";

/** Success responses by status, e.g. `{ 200: MeSchema }` or `{ 200: UploadSchema, 201: FileSchema }`. */
export type ResponseSchemas = { [status: number]: z.ZodType };

export interface Operation<
  P extends ObjectSchema | undefined = ObjectSchema | undefined,
  Q extends ObjectSchema | undefined = ObjectSchema | undefined,
  B extends z.ZodType | undefined = z.ZodType | undefined,
  R extends ResponseSchemas = ResponseSchemas,
  S extends OperationScope = OperationScope,
> {
  method: HttpMethod;
  /** OpenAPI style, matching the route file: `/api/v1/portals/{portalId}` ↔ `app/api/v1/portals/[portalId]/route.ts`. */
  path: `/api/v1/${string}`;
  operationId: string;
  summary: string;
  description?: string;
  /** Groups operations in the document and on /docs/api. */
  tag: string;
  /** The scope the token needs (see OperationScope). */
  scope: S;
  /** Path parameters; use pathId() for ids (a malformed id is 404). */
  params?: P;
  query?: Q;
  body?: B;
  responses: R;
  /** Error statuses beyond the standard ones, with what they mean here, e.g. `{ 409: "..." }`. */
  errors?: { [status: number]: string };
}

/** Keeps the literal types of an operation (so params, query, body and responses stay typed). */
export function defineOperation<
  P extends ObjectSchema | undefined = undefined,
  Q extends ObjectSchema | undefined = undefined,
  B extends z.ZodType | undefined = undefined,
  R extends ResponseSchemas = ResponseSchemas,
  S extends OperationScope = OperationScope,
>(operation: Operation<P, Q, B, R, S>): Operation<P, Q, B, R, S> {
  return operation;
}

export type Parsed<S> = S extends z.ZodType ? z.output<S> : undefined;

/**
 * The union of `{status, body}` a handler may return, one member per declared status: the body
 * as the schema's input (json), or as its output with `exact` (exactJson, lib/api/response.ts).
 */
export type ResultOf<R extends ResponseSchemas> = {
  [K in keyof R & number]:
    | { status: K; body: z.input<R[K]>; headers: Record<string, string>; exact?: undefined }
    | { status: K; body: z.output<R[K]>; headers: Record<string, string>; exact: true };
}[keyof R & number];
