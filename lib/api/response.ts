// What every /api/v1 response carries (D2), and the result type handlers return.

export const API_VERSION = "1.0.2";

/** A handler's answer: the wrapper validates `body` against the operation's response schema. */
export interface ApiResult<Body = unknown, Status extends number = number> {
  status: Status;
  body: Body;
  headers: Record<string, string>;
}

/** `return json(portal)` (200) or `json(portal, 201)`; extra headers (e.g. `Link`) third. */
export function json<Body>(body: Body): ApiResult<Body, 200>;
export function json<Body, Status extends number>(body: Body, status: Status, headers?: Record<string, string>): ApiResult<Body, Status>;
// Overloads, so that a bare json(body) is 200 and never inferred from the declared statuses.
export function json(body: unknown, status = 200, headers: Record<string, string> = {}): ApiResult {
  return { status, body, headers };
}

/**
 * json() for a body built as it is sent: the schema's output (e.g. timestamps as ISO text), every
 * field named in the schema's order, by a typed builder (e.g. toPortalBody). In production the
 * wrapper sends it as built, without the schema's parse (the parse of 100 portals, with the Dates
 * it needs, was a good part of the list's CPU). In development and tests the wrapper
 * turns it back into the schema's input, parses that, and fails the request (500) unless the
 * parse writes the same bytes, so every test that reaches such a response checks its builder
 * (docs/operations.md, "Response validation").
 */
export function exactJson<Body, Status extends number>(body: Body, status: Status, headers: Record<string, string> = {}): ExactResult<Body, Status> {
  return { status, body, headers, exact: true };
}

export interface ExactResult<Body = unknown, Status extends number = number> {
  status: Status;
  /** The schema's output, as sent. */
  body: Body;
  headers: Record<string, string>;
  exact: true;
}

export function standardHeaders(requestId: string): Record<string, string> {
  return {
    "Content-Type": "application/json; charset=utf-8",
    "Cache-Control": "no-store",
    "X-API-Version": API_VERSION,
    "X-Request-Id": requestId,
  };
}

/** A JSON response; `text` is the serialized body (kept as text so idempotent replays are byte-equal). */
export function jsonResponse(status: number, text: string, headers: Record<string, string>): Response {
  return new Response(text, { status, headers });
}
