import { env } from "@/lib/env";

/** The longest path sign-in comes back to (safeReturnPath); a longer one takes the user home. */
export const MAX_RETURN_PATH = 2048;

/**
 * The sign-in page, coming back to `returnTo` once signed in (`query`: more of sign-in's
 * parameters, before it). A return path longer than sign-in accepts is left out rather than sent
 * to be refused there: the user lands home as sign-in would send them, and the redirect stays far
 * below the 16 KB of headers clients read (a path near the request limit, encoded once more,
 * would not be).
 */
export function signInPath(returnTo: string, query: Record<string, string> = {}): string {
  const params = { ...query, ...(returnTo.length <= MAX_RETURN_PATH ? { callbackUrl: returnTo } : {}) };
  const search = Object.entries(params)
    .map(([name, value]) => `${name}=${encodeURIComponent(value)}`)
    .join("&");
  return search ? `/sign-in?${search}` : "/sign-in";
}

/**
 * Where the browser may go after sign-in: a path of this app, or "/" for anything else.
 *
 * The value is read the way a browser would read it, by parsing it as a URL against the app's
 * origin (the URL parser drops TAB, CR and LF and turns `\` into `/`, as browsers do), and it is
 * accepted only when the origin stays ours. What is returned is the parsed path, query and
 * fragment, so no control character or backslash reaches a Location header.
 */
export function safeReturnPath(value: unknown, appUrl: string = env().APP_URL): string {
  if (typeof value !== "string" || value.length === 0 || value.length > MAX_RETURN_PATH) return "/";
  const base = new URL(appUrl);
  // Only a path of ours or an absolute URL of our own origin; "javascript:", "mailto:" and
  // scheme-relative values are refused before the parser can resolve them.
  if (!value.startsWith("/") && !value.startsWith(`${base.origin}/`)) return "/";
  let url: URL;
  try {
    url = new URL(value, base);
  } catch {
    return "/";
  }
  if (url.origin !== base.origin) return "/";
  const basePath = base.pathname.replace(/\/+$/, "");
  if (basePath && url.pathname !== basePath && !url.pathname.startsWith(`${basePath}/`)) return "/";
  const path = `${url.pathname}${url.search}${url.hash}`;
  // The serialized path of a same-origin URL starts with a single "/"; "//" here would still be
  // read as another host by a browser that gets it as a relative Location.
  return path.startsWith("//") ? "/" : path;
}
