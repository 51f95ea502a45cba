import type { z } from "zod";
import { env } from "@/lib/env";
import { AppError, invalidRequest } from "@/lib/errors";
import { log, withLogContext } from "@/lib/log";
import type { Scope } from "@/lib/oauth/scopes";
import { authenticate, requireOrgApiAccess, requireScope, type ApiAuth } from "./auth";
import { formatZodError, mapError } from "./error-response";
import { claimIdempotencyKey, completeIdempotencyKey, readIdempotencyKey, releaseIdempotencyKey, requestHash } from "./idempotency";
import type { ObjectSchema, Operation, Parsed, ResponseSchemas, ResultOf } from "./operation";
import { countRequest, rateLimitError, rateLimitHeaders } from "./rate-limit";
import { parseJsonBody, readBody } from "./read-body";
import { requestIdOf } from "./request-id";
import { jsonResponse, standardHeaders } from "./response";

// The one wrapper of every /api/v1 handler. In order: request id; bearer token; daily rate limit
// (counted for every authenticated request, so its headers are on every response after that);
// organization gate; scope; body size; path params (malformed id: 404); Idempotency-Key syntax;
// JSON; query; body; idempotency claim (POST); the handler; response schema; error mapping.

/** Next.js hands dynamic segments as a promise; absent when a test calls a static route. */
export interface RouteContext {
  params: Promise<Record<string, string | string[] | undefined>>;
}

export type RouteHandler = ((req: Request, ctx?: RouteContext) => Promise<Response>) & { operation: Operation };

export interface PublicHandlerArgs<P, Q, B> {
  req: Request;
  url: URL;
  requestId: string;
  params: Parsed<P>;
  query: Parsed<Q>;
  body: Parsed<B>;
}

export interface HandlerArgs<P, Q, B> extends PublicHandlerArgs<P, Q, B> {
  auth: ApiAuth;
}

type Handler<Args, R extends ResponseSchemas> = (args: Args) => Promise<ResultOf<R>>;

/** A route handler for an authenticated operation (`scope` is a scope or `null` for any token). */
export function apiRoute<P extends ObjectSchema | undefined, Q extends ObjectSchema | undefined, B extends z.ZodType | undefined, R extends ResponseSchemas>(
  operation: Operation<P, Q, B, R, Scope | null>,
  handler: Handler<HandlerArgs<P, Q, B>, R>,
): RouteHandler {
  return build(operation, handler as Handler<PublicHandlerArgs<P, Q, B> & { auth: ApiAuth | null }, R>);
}

/** A route handler without a token (the OpenAPI document): same headers, errors and parsing. */
export function publicApiRoute<P extends ObjectSchema | undefined, Q extends ObjectSchema | undefined, B extends z.ZodType | undefined, R extends ResponseSchemas>(
  operation: Operation<P, Q, B, R, "public">,
  handler: Handler<PublicHandlerArgs<P, Q, B>, R>,
): RouteHandler {
  return build(operation, handler);
}

function build<P extends ObjectSchema | undefined, Q extends ObjectSchema | undefined, B extends z.ZodType | undefined, R extends ResponseSchemas>(
  operation: Operation<P, Q, B, R>,
  handler: Handler<PublicHandlerArgs<P, Q, B> & { auth: ApiAuth | null }, R>,
): RouteHandler {
  const route = (req: Request, ctx?: RouteContext) => {
    // Every log line of the request, however deep, carries its id (lib/log.ts).
    const requestId = requestIdOf(req);
    return withLogContext({ request_id: requestId, method: req.method, path: new URL(req.url).pathname }, () => handle(operation, handler, req, ctx, requestId));
  };
  return Object.assign(route, { operation: operation as Operation });
}

interface Outcome {
  status: number;
  text: string;
  headers: Record<string, string>;
}

async function handle<P extends ObjectSchema | undefined, Q extends ObjectSchema | undefined, B extends z.ZodType | undefined, R extends ResponseSchemas>(
  op: Operation<P, Q, B, R>,
  handler: Handler<PublicHandlerArgs<P, Q, B> & { auth: ApiAuth | null }, R>,
  req: Request,
  ctx: RouteContext | undefined,
  requestId: string,
): Promise<Response> {
  const url = new URL(req.url);
  const headers = standardHeaders(requestId);
  let recordId: string | null = null;
  let outcome: Outcome;
  try {
    let auth: ApiAuth | null = null;
    if (op.scope !== "public") {
      auth = await authenticate(req);
      const rate = await countRequest(auth.clientRecordId);
      Object.assign(headers, rateLimitHeaders(rate));
      const limited = rateLimitError(rate);
      if (limited) throw limited;
      await requireOrgApiAccess(auth);
      requireScope(auth, op.scope);
    }
    const raw = req.method === "GET" || req.method === "HEAD" ? "" : await readBody(req, env().API_MAX_BODY_BYTES);
    // `as P`: an omitted schema is `undefined`, which P already allows (Parsed<undefined> = undefined).
    const params = await parseParams(op.params as P, ctx);
    const key = req.method === "POST" && auth ? readIdempotencyKey(req) : null;
    const query = parse(op.query as Q, Object.fromEntries(url.searchParams), "Query");
    const body = op.body ? parse(op.body, parseJsonBody(raw), "Request body") : undefined;

    if (key && auth) {
      const path = url.pathname + url.search;
      const claim = await claimIdempotencyKey({ clientId: auth.clientRecordId, key, method: req.method, path, requestHash: requestHash(req.method, path, raw) });
      if (claim.kind === "replay") return jsonResponse(claim.status, claim.body, { ...headers, "Idempotent-Replayed": "true" });
      recordId = claim.recordId;
    }

    const result = await handler({ req, url, requestId, auth, params, query, body: body as Parsed<B> });
    outcome = serialize(op.responses, result);
  } catch (error) {
    const mapped = mapError(error);
    if (mapped.unexpected) log().error({ err: error }, "API request failed");
    outcome = { status: mapped.status, text: JSON.stringify(mapped.body), headers: mapped.headers };
  }

  if (recordId) {
    // Stored: what the handler decided (2xx and 4xx). Released: 5xx, so a retry does the work.
    // The work is done either way, so a failure here is logged and the response still sent; the
    // key then counts as abandoned after a while (see idempotency.ts).
    const id = recordId;
    const settle = outcome.status < 500 ? completeIdempotencyKey(id, outcome.status, outcome.text) : releaseIdempotencyKey(id);
    await settle.catch((e: unknown) => log().error({ err: e }, "settling Idempotency-Key failed"));
  }
  return jsonResponse(outcome.status, outcome.text, { ...outcome.headers, ...headers });
}

async function parseParams<P extends ObjectSchema | undefined>(schema: P, ctx: RouteContext | undefined): Promise<Parsed<P>> {
  if (!schema) return undefined as Parsed<P>;
  const result = schema.safeParse(ctx ? await ctx.params : {});
  if (result.success) return result.data as Parsed<P>;
  // D4: a path that does not parse names nothing that exists.
  const issue = result.error.issues.find((i) => i.code === "custom");
  throw new AppError("not_found", issue?.message ?? "Not found");
}

function parse<S extends z.ZodType | undefined>(schema: S, input: unknown, root: string): Parsed<S> {
  if (!schema) return undefined as Parsed<S>;
  const result = schema.safeParse(input);
  if (!result.success) throw invalidRequest(formatZodError(result.error, root));
  return result.data as Parsed<S>;
}

/** Checks the result against the declared schema (unknown keys are dropped: nothing leaks by accident). */
function serialize(responses: ResponseSchemas, result: { status: number; body: unknown; headers: Record<string, string> }): Outcome {
  const schema = responses[result.status];
  if (!schema) throw new Error(`The handler returned status ${result.status}, which the operation does not declare`);
  const parsed = schema.safeParse(result.body);
  if (!parsed.success) throw new Error(`The response does not match its schema: ${formatZodError(parsed.error, "body")}`);
  return { status: result.status, text: JSON.stringify(parsed.data), headers: result.headers };
}
