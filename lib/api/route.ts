import type { z } from "zod";
import { viewerFromApiAuth, type UserViewer } from "@/lib/access/viewer";
import { env } from "@/lib/env";
import { AppError, invalidRequest } from "@/lib/errors";
import { log, withLogContext } from "@/lib/log";
import type { Scope } from "@/lib/access/scopes";
import { findTextProblem } from "@/lib/text";
import { admit, requireOrgApiAccess, requireScope, type ApiAuth } from "./auth";
import { formatZodError, mapError, type MappedError } from "./error-response";
import { db, runWithDeferredTransaction } from "@/lib/db";
import {
  ClaimLostError,
  claimIdempotencyKey,
  completeClaim,
  endClaim,
  holdClaim,
  readIdempotencyKey,
  releaseClaim,
  requestHash,
  WAIT_MS,
  type ClaimInput,
} from "./idempotency";
import type { ObjectSchema, Operation, Parsed, ResponseSchemas, ResultOf } from "./operation";
import { rateLimitError, rateLimitHeaders } from "./rate-limit";
import { parseJsonBody, readBody } from "./read-body";
import { requestIdOf } from "./request-id";
import { jsonResponse, standardHeaders } from "./response";

// The one wrapper of every /api/v1 handler. In order: request id; bearer token; daily rate limit
// (counted for every authenticated request, so its headers are on every response after that);
// organization gate; scope; body size; path params (malformed id: 404); Idempotency-Key syntax;
// JSON; query; body; idempotency claim (POST); the handler; response schema; error mapping.
// A POST with an Idempotency-Key stores its outcome in the transaction of its change.

/** Longest the change of a POST with an Idempotency-Key may hold its transaction (from its first write to its response). */
const IDEMPOTENT_TRANSACTION_TIMEOUT_MS = 30_000;

/** Production only: bodies built by exactJson are sent without a second parse (see serialize). */
const TRUST_EXACT_BODIES = process.env.NODE_ENV === "production";

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
  /** Who is asking, for the domain functions (lib/access): the token's user through its client. */
  viewer: UserViewer;
}

type Handler<Args, R extends ResponseSchemas> = (args: Args) => Promise<ResultOf<R>>;

/** A route handler for an authenticated operation (`scope` is a scope or `null` for any token). */
export function apiRoute<P extends ObjectSchema | undefined, Q extends ObjectSchema | undefined, B extends z.ZodType | undefined, R extends ResponseSchemas>(
  operation: Operation<P, Q, B, R, Scope | null>,
  handler: Handler<HandlerArgs<P, Q, B>, R>,
): RouteHandler {
  return build(operation, handler as Handler<PublicHandlerArgs<P, Q, B> & { auth: ApiAuth | null; viewer: UserViewer | null }, R>);
}

/** A route handler without a token (the OpenAPI document): same headers, errors and parsing. */
export function publicApiRoute<
  P extends ObjectSchema | undefined,
  Q extends ObjectSchema | undefined,
  B extends z.ZodType | undefined,
  R extends ResponseSchemas,
>(operation: Operation<P, Q, B, R, "public">, handler: Handler<PublicHandlerArgs<P, Q, B>, R>): RouteHandler {
  return build(operation, handler);
}

function build<P extends ObjectSchema | undefined, Q extends ObjectSchema | undefined, B extends z.ZodType | undefined, R extends ResponseSchemas>(
  operation: Operation<P, Q, B, R>,
  handler: Handler<PublicHandlerArgs<P, Q, B> & { auth: ApiAuth | null; viewer: UserViewer | null }, R>,
): RouteHandler {
  const route = (req: Request, ctx?: RouteContext) => {
    // Every log line of the request, however deep, carries its id (lib/log.ts).
    const requestId = requestIdOf(req);
    return withLogContext({ request_id: requestId, method: req.method, path: new URL(req.url).pathname }, () =>
      handle(operation, handler, req, ctx, requestId),
    );
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
  handler: Handler<PublicHandlerArgs<P, Q, B> & { auth: ApiAuth | null; viewer: UserViewer | null }, R>,
  req: Request,
  ctx: RouteContext | undefined,
  requestId: string,
): Promise<Response> {
  const url = new URL(req.url);
  const headers = standardHeaders(requestId);
  let outcome: Outcome;
  try {
    let auth: ApiAuth | null = null;
    if (op.scope !== "public") {
      const admitted = await admit(req);
      auth = admitted.auth;
      Object.assign(headers, rateLimitHeaders(admitted.rate));
      const limited = rateLimitError(admitted.rate);
      if (limited) throw limited;
      requireOrgApiAccess(admitted);
      requireScope(auth, op.scope);
    }
    const raw = req.method === "GET" || req.method === "HEAD" ? "" : await readBody(req, env().API_MAX_BODY_BYTES);
    // `as P`: an omitted schema is `undefined`, which P already allows (Parsed<undefined> = undefined).
    const params = await parseParams(op.params as P, ctx);
    const key = req.method === "POST" && auth ? readIdempotencyKey(req) : null;
    const query = parse(op.query as Q, storable(Object.fromEntries(url.searchParams), "Query"), "Query");
    const body = op.body ? parse(op.body, storable(parseJsonBody(raw), "Request body"), "Request body") : undefined;
    const viewer = auth ? viewerFromApiAuth(auth) : null;
    const run = async () => serialize(op.responses, await handler({ req, url, requestId, auth, viewer, params, query, body: body as Parsed<B> }));

    if (key && auth) {
      const path = url.pathname + url.search;
      const claim: ClaimInput = { clientId: auth.clientRecordId, key, method: req.method, path, requestHash: requestHash(req.method, path, raw) };
      const settled = await runIdempotent(claim, run);
      if (settled.replayed) return jsonResponse(settled.status, settled.text, { ...headers, "Idempotent-Replayed": "true" });
      outcome = settled;
    } else {
      outcome = await run();
    }
  } catch (error) {
    outcome = errorOutcome(error);
  }
  return jsonResponse(outcome.status, outcome.text, { ...outcome.headers, ...headers });
}

function errorOutcome(error: unknown): Outcome {
  const mapped = mapError(error);
  // The log context (lib/log.ts) adds the request id, method and path.
  if (mapped.unexpected) log().error({ err: error }, "API request failed");
  return mappedOutcome(mapped);
}

const mappedOutcome = (mapped: MappedError): Outcome => ({ status: mapped.status, text: JSON.stringify(mapped.body), headers: mapped.headers });

/**
 * D6 (lib/api/idempotency.ts): claim the key, run the handler in a deferred transaction that its
 * first change opens and that stores the outcome before it commits; a 4xx rolls the change back and
 * is stored alone; a 5xx releases the claim, so the retry runs again. A request whose claim was
 * taken over meanwhile committed nothing and answers what the other request stored.
 */
async function runIdempotent(input: ClaimInput, run: () => Promise<Outcome>): Promise<Outcome & { replayed: boolean }> {
  const claim = await claimIdempotencyKey(input);
  if (claim.kind === "replay") return { status: claim.status, text: claim.body, headers: {}, replayed: true };
  try {
    let outcome: Outcome;
    try {
      const { result, opened } = await runWithDeferredTransaction(
        run,
        {
          begin: (tx) => holdClaim(tx, claim),
          finish: async (tx, done) => {
            if (!(await completeClaim(tx, claim, done.status, done.text))) throw new ClaimLostError();
          },
        },
        { timeout: IDEMPOTENT_TRANSACTION_TIMEOUT_MS },
      );
      if (opened) return { ...result, replayed: false };
      outcome = result;
    } catch (error) {
      if (error instanceof ClaimLostError) return await replayOf(input);
      const mapped = mapError(error);
      if (mapped.status >= 500) {
        await releaseClaim(claim);
        throw error;
      }
      outcome = mappedOutcome(mapped);
    }
    // Nothing was changed (a 4xx, or a handler without writes): the outcome is stored alone.
    if (await completeClaim(db, claim, outcome.status, outcome.text)) return { ...outcome, replayed: false };
    return await replayOf(input);
  } finally {
    endClaim(claim);
  }
}

/** The outcome another request stored for the key (it took the claim over): waits up to WAIT_MS, then 409. */
async function replayOf(input: ClaimInput): Promise<Outcome & { replayed: boolean }> {
  const deadline = Date.now() + WAIT_MS;
  for (;;) {
    const record = await db.idempotencyRecord.findUnique({ where: { clientId_key: { clientId: input.clientId, key: input.key } } });
    if (record?.completedAt && record.statusCode !== null && record.responseBody !== null) {
      return { status: record.statusCode, text: record.responseBody, headers: {}, replayed: true };
    }
    if (Date.now() >= deadline) throw new AppError("conflict", "A request with this Idempotency-Key is still being processed; retry later");
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function parseParams<P extends ObjectSchema | undefined>(schema: P, ctx: RouteContext | undefined): Promise<Parsed<P>> {
  if (!schema) return undefined as Parsed<P>;
  const result = schema.safeParse(ctx ? await ctx.params : {});
  if (result.success) return result.data as Parsed<P>;
  // D4: a path that does not parse names nothing that exists.
  const issue = result.error.issues.find((i) => i.code === "custom");
  throw new AppError("not_found", issue?.message ?? "Not found");
}

/** D3: NUL and lone surrogates are refused here, once for every field of every operation. */
function storable(input: unknown, root: string): unknown {
  const problem = findTextProblem(input, root);
  if (problem) throw invalidRequest(problem);
  return input;
}

function parse<S extends z.ZodType | undefined>(schema: S, input: unknown, root: string): Parsed<S> {
  if (!schema) return undefined as Parsed<S>;
  const result = schema.safeParse(input);
  if (!result.success) throw invalidRequest(formatZodError(result.error, root));
  return result.data as Parsed<S>;
}

/**
 * Checks the result against the declared schema (unknown keys are dropped: nothing leaks by
 * accident). A body of exactJson is the schema's output as sent: trusted in production; elsewhere
 * turned back into the schema's input (inputOf), parsed, and refused unless the parse writes the
 * same bytes, so that the tests prove the trust.
 */
function serialize(responses: ResponseSchemas, result: { status: number; body: unknown; headers: Record<string, string>; exact?: true }): Outcome {
  const schema = responses[result.status];
  if (!schema) throw new Error(`The handler returned status ${result.status}, which the operation does not declare`);
  if (result.exact && TRUST_EXACT_BODIES) return { status: result.status, text: JSON.stringify(result.body), headers: result.headers };
  const parsed = schema.safeParse(result.exact ? inputOf(schema, result.body) : result.body);
  if (!parsed.success) throw new Error(`The response does not match its schema: ${formatZodError(parsed.error, "body")}`);
  const text = JSON.stringify(parsed.data);
  if (result.exact && JSON.stringify(result.body) !== text) {
    throw new Error(`exactJson: the builder does not write what the schema's parse does: ${JSON.stringify(result.body).slice(0, 300)}`);
  }
  return { status: result.status, text, headers: result.headers };
}

/** The parts of a zod schema's definition that inputOf walks. */
interface Def {
  type: string;
  in?: z.ZodType;
  innerType?: z.ZodType;
  element?: z.ZodType;
  shape?: Record<string, z.ZodType>;
  valueType?: z.ZodType;
}

/**
 * Development and tests only: an exactJson body (the schema's output) back as the schema's input,
 * where they differ: a date-time sent as text is a Date before the parse (lib/shared-schemas
 * dateTime). Anything else is left as it is: if the output is not the input, the byte comparison
 * in serialize fails, which is the safe side.
 */
function inputOf(schema: z.ZodType, value: unknown): unknown {
  const def = (schema as unknown as { _zod: { def: Def } })._zod.def;
  const isObject = typeof value === "object" && value !== null && !Array.isArray(value);
  if (def.type === "pipe" && def.in) {
    const date = (def.in as unknown as { _zod: { def: Def } })._zod.def.type === "date";
    return date && typeof value === "string" ? new Date(value) : inputOf(def.in, value);
  }
  if ((def.type === "nullable" || def.type === "optional") && def.innerType) return value == null ? value : inputOf(def.innerType, value);
  if (def.type === "array" && def.element && Array.isArray(value)) return value.map((v) => inputOf(def.element as z.ZodType, v));
  if (def.type === "object" && def.shape && isObject) {
    const shape = def.shape;
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, Object.hasOwn(shape, k) ? inputOf(shape[k] as z.ZodType, v) : v]));
  }
  if (def.type === "record" && def.valueType && isObject) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, inputOf(def.valueType as z.ZodType, v)]));
  }
  return value;
}
