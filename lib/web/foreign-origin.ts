/**
 * Whether a browser POST comes from another site: its Origin names a host other than the one the
 * request was sent to (the first `X-Forwarded-Host` behind a proxy, else `Host`). The same rule
 * as Next.js's own check on server actions, which answers such a request with a bare 500; the
 * proxy uses this to answer first, with a 403 and a page that says what happened.
 *
 * No Origin at all is not foreign: browsers send one with every cross-site POST, and a request
 * without it (curl) carries no cookies it was not given.
 */
export function isForeignOrigin(headers: Headers): boolean {
  const origin = headers.get("origin");
  if (origin === null) return false;
  if (origin === "null") return true;
  let originHost: string;
  try {
    originHost = new URL(origin).host;
  } catch {
    return true;
  }
  const forwarded = headers.get("x-forwarded-host")?.split(",")[0]?.trim();
  const host = forwarded || headers.get("host");
  return !host || host.toLowerCase() !== originHost.toLowerCase();
}
