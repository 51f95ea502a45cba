import { env } from "@/lib/env";
import { type Cursor, encodeCursor } from "@/lib/pagination";

// The API side of D5 paging: a `Link: <next>; rel="next"` header when more items exist.

/** The next page's absolute URL: the same request with `cursor` replaced (API_URL as base, D1). */
function nextPageUrl(url: URL, cursor: Cursor): string {
  const params = new URLSearchParams(url.searchParams);
  params.set("cursor", encodeCursor(cursor));
  return `${env().API_URL}${url.pathname}?${params.toString()}`;
}

/** The `Link: <next>; rel="next"` header for a page with more after it; none on the last page. */
export function linkHeader(url: URL, next: Cursor | null): Record<string, string> {
  return next ? { Link: `<${nextPageUrl(url, next)}>; rel="next"` } : {};
}
