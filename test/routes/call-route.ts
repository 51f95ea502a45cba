import type { RouteContext } from "@/lib/api/route";

// Calls a real exported route handler with a real Request, as Next.js would: for integration tests
// of /api/v1 routes (`await callRoute(GET, { path: "/api/v1/me", token })`).

export interface CallOptions {
  method?: string;
  /** Path with query, e.g. `/api/v1/portals?limit=2`. */
  path: string;
  token?: string;
  /** An object is sent as JSON; a string is sent as is. */
  body?: unknown;
  headers?: Record<string, string>;
  /** The dynamic segments, as Next.js passes them. */
  params?: Record<string, string | string[]>;
}

export interface CallResult<Json> {
  status: number;
  headers: Headers;
  /** The parsed JSON body (every /api/v1 response is JSON); its type is the caller's claim. */
  json: Json;
  text: string;
}

export async function callRoute<Json = Record<string, unknown>>(
  handler: (req: Request, ctx: RouteContext) => Promise<Response>,
  options: CallOptions,
): Promise<CallResult<Json>> {
  const headers = new Headers(options.headers);
  if (options.token !== undefined) headers.set("Authorization", `Bearer ${options.token}`);
  let body: string | undefined;
  if (options.body !== undefined) {
    body = typeof options.body === "string" ? options.body : JSON.stringify(options.body);
    if (!headers.has("content-type")) headers.set("Content-Type", "application/json");
  }
  const req = new Request(`http://localhost:3000${options.path}`, { method: options.method ?? (body === undefined ? "GET" : "POST"), headers, body });
  const res = await handler(req, { params: Promise.resolve(options.params ?? {}) });
  const text = await res.text();
  return { status: res.status, headers: res.headers, json: JSON.parse(text) as Json, text };
}
