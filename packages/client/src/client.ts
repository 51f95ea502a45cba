import createClient, { type Client } from "openapi-fetch";
import type { paths } from "./schema";
import { Transport, type TransportOptions } from "./transport";

// The typed client: openapi-fetch over the generated paths, sending through the Transport
// (tokens, refresh, Idempotency-Key, back-off), with Link paging as async iterators.

export type ClientPortalsApi = Client<paths>;

export interface ClientPortalsOptions extends TransportOptions {
  /** The API's base URL (the OpenAPI document's server), e.g. https://api.example.com */
  baseUrl: string;
}

/** Paths whose GET answers a JSON array: the lists, paged with `limit`, `cursor` and Link. */
export type ListPath = {
  [P in keyof paths]: paths[P] extends { get: { responses: { 200: { content: { "application/json": unknown[] } } } } } ? P : never;
}[keyof paths];

type ItemOf<P extends ListPath> = paths[P] extends { get: { responses: { 200: { content: { "application/json": (infer T)[] } } } } } ? T : never;
type ListParams<P extends ListPath> = paths[P] extends { get: { parameters: infer Q } } ? Q : never;

/** The URL of `rel="next"` in a Link header, if any. */
export function nextLink(link: string | null): string | null {
  if (!link) return null;
  for (const part of link.split(",")) {
    const match = /<([^>]*)>\s*;(.*)/.exec(part.trim());
    if (match && /(^|;)\s*rel="?next"?\s*(;|$)/.test(match[2]!)) return match[1]!;
  }
  return null;
}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly error: string,
    readonly description: string,
  ) {
    super(`${status} ${error}: ${description}`);
    this.name = "ApiError";
  }
}

export function createClientPortals(options: ClientPortalsOptions) {
  const transport = new Transport(options);
  const api: ClientPortalsApi = createClient<paths>({ baseUrl: options.baseUrl.replace(/\/$/, ""), fetch: transport.fetch });

  /**
   * Every item of a list, page after page, following `Link: rel="next"` (the cursor and the other
   * query parameters of the next page's URL). Throws ApiError when a page is refused.
   */
  async function* paginate<P extends ListPath>(path: P, params: ListParams<P>): AsyncGenerator<ItemOf<P>> {
    let current = params as { path?: Record<string, unknown>; query?: Record<string, unknown> };
    for (;;) {
      const get = api.GET as unknown as (path: string, init: { params: typeof current }) => Promise<{ data?: unknown; error?: unknown; response: Response }>;
      const { data, error, response } = await get(path, { params: current });
      if (error !== undefined || !Array.isArray(data)) {
        const e = (error ?? {}) as { error?: string; error_description?: string };
        throw new ApiError(response.status, e.error ?? "server_error", e.error_description ?? `HTTP ${response.status}`);
      }
      for (const item of data) yield item as ItemOf<P>;
      const next = nextLink(response.headers.get("Link"));
      if (!next) return;
      current = { ...current, query: Object.fromEntries(new URL(next).searchParams) };
    }
  }

  return {
    /** The openapi-fetch client: `api.GET("/api/v1/portals/{portalId}", { params: { path: { portalId } } })`. */
    api,
    paginate,
    /** The current token pair (after any refresh). */
    tokens: () => transport.currentTokens(),
    /** Refreshes now (rotation included); normally done on demand. */
    refresh: () => transport.refresh(),
  };
}

export type ClientPortals = ReturnType<typeof createClientPortals>;
